"""platform customization: page-managed platforms and their admin; per-platform settings

Revision ID: 0016
Revises: 0015
Create Date: 2026-11-24 03:05:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0016'
down_revision = '0015'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('platform', schema=None) as batch_op:
        batch_op.add_column(sa.Column('page_managed', sa.Boolean(), server_default=sa.false(), nullable=False))
        batch_op.add_column(sa.Column('admin_account_id', sa.Integer(), nullable=True))
    op.create_table('platform_setting',
    sa.Column('platform_id', sa.Integer(), nullable=False),
    sa.Column('default_time_zone', sa.String(length=64), nullable=False),
    sa.Column('providers', sa.JSON(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), server_default=sa.text('(CURRENT_TIMESTAMP)'), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), server_default=sa.text('(CURRENT_TIMESTAMP)'), nullable=False),
    sa.ForeignKeyConstraint(['platform_id'], ['platform.id'], name=op.f('fk_platform_setting_platform_id_platform'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('platform_id', name=op.f('pk_platform_setting'))
    )


def downgrade():
    op.drop_table('platform_setting')
    with op.batch_alter_table('platform', schema=None) as batch_op:
        batch_op.drop_column('admin_account_id')
        batch_op.drop_column('page_managed')
