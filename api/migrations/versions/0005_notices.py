"""notices

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-21 22:03:49.210185

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0005'
down_revision = '0004'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('notice',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('platform_id', sa.Integer(), nullable=False),
    sa.Column('title', sa.String(length=100), nullable=False),
    sa.Column('content', sa.Text(), nullable=False),
    sa.Column('notice_type', sa.Integer(), nullable=False),
    sa.Column('notice_platform', sa.Integer(), nullable=False),
    sa.Column('notice_camp', sa.Integer(), nullable=False),
    sa.Column('enabled', sa.Boolean(), nullable=False),
    sa.Column('created_by', sa.Integer(), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), server_default=sa.text('(CURRENT_TIMESTAMP)'), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), server_default=sa.text('(CURRENT_TIMESTAMP)'), nullable=False),
    sa.ForeignKeyConstraint(['created_by'], ['account.id'], name=op.f('fk_notice_created_by_account'), ondelete='SET NULL'),
    sa.ForeignKeyConstraint(['platform_id'], ['platform.id'], name=op.f('fk_notice_platform_id_platform'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_notice'))
    )
    with op.batch_alter_table('notice', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_notice_platform_id'), ['platform_id'], unique=False)



def downgrade():
    with op.batch_alter_table('notice', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_notice_platform_id'))

    op.drop_table('notice')
