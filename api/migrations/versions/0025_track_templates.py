"""map track templates

Revision ID: 0025
Revises: 0024
Create Date: 2026-11-24 13:50:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0025'
down_revision = '0024'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('track_template',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('owner_account_id', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=10), nullable=False),
    sa.Column('line_color', sa.String(length=7), nullable=False),
    sa.Column('line_width', sa.Integer(), nullable=False),
    sa.Column('stop_minutes', sa.Integer(), nullable=False),
    sa.Column('color_by_limits', sa.Boolean(), nullable=False),
    sa.Column('is_default', sa.Boolean(), nullable=False),
    sa.Column('platform_id', sa.Integer(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), server_default=sa.text('(CURRENT_TIMESTAMP)'), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), server_default=sa.text('(CURRENT_TIMESTAMP)'), nullable=False),
    sa.ForeignKeyConstraint(['owner_account_id'], ['account.id'], name=op.f('fk_track_template_owner_account_id_account'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['platform_id'], ['platform.id'], name=op.f('fk_track_template_platform_id_platform')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_track_template')),
    sa.UniqueConstraint('owner_account_id', 'name', name=op.f('uq_track_template_owner_account_id_name'))
    )
    with op.batch_alter_table('track_template', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_track_template_owner_account_id'), ['owner_account_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_track_template_platform_id'), ['platform_id'], unique=False)


def downgrade():
    with op.batch_alter_table('track_template', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_track_template_platform_id'))
        batch_op.drop_index(batch_op.f('ix_track_template_owner_account_id'))

    op.drop_table('track_template')
