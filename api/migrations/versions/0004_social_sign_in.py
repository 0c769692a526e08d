"""social sign-in

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-21 22:02:24.278967

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0004'
down_revision = '0003'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('oauth_state',
    sa.Column('state_hash', sa.String(length=64), nullable=False),
    sa.Column('provider', sa.String(length=20), nullable=False),
    sa.Column('platform_id', sa.Integer(), nullable=False),
    sa.Column('redirect_uri', sa.String(length=500), nullable=False),
    sa.Column('expires_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['platform_id'], ['platform.id'], name=op.f('fk_oauth_state_platform_id_platform'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('state_hash', name=op.f('pk_oauth_state'))
    )
    with op.batch_alter_table('oauth_state', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_oauth_state_expires_at'), ['expires_at'], unique=False)

    op.create_table('social_identity',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('platform_id', sa.Integer(), nullable=False),
    sa.Column('provider', sa.String(length=20), nullable=False),
    sa.Column('subject', sa.String(length=128), nullable=False),
    sa.Column('display_name', sa.String(length=100), nullable=True),
    sa.Column('account_id', sa.Integer(), nullable=True),
    sa.Column('binding_ticket_hash', sa.String(length=64), nullable=True),
    sa.Column('binding_expires_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['account_id'], ['account.id'], name=op.f('fk_social_identity_account_id_account'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['platform_id'], ['platform.id'], name=op.f('fk_social_identity_platform_id_platform'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_social_identity')),
    sa.UniqueConstraint('binding_ticket_hash', name=op.f('uq_social_identity_binding_ticket_hash')),
    sa.UniqueConstraint('platform_id', 'provider', 'subject', name=op.f('uq_social_identity_platform_id_provider_subject'))
    )
    with op.batch_alter_table('social_identity', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_social_identity_account_id'), ['account_id'], unique=False)



def downgrade():
    with op.batch_alter_table('social_identity', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_social_identity_account_id'))

    op.drop_table('social_identity')
    with op.batch_alter_table('oauth_state', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_oauth_state_expires_at'))

    op.drop_table('oauth_state')
