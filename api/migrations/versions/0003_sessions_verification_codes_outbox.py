"""sessions, verification codes, outbox

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-21 21:57:14.819207

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0003'
down_revision = '0002'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('captcha_challenge',
    sa.Column('key', sa.String(length=32), nullable=False),
    sa.Column('answer_hash', sa.String(length=64), nullable=False),
    sa.Column('expires_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('key', name=op.f('pk_captcha_challenge'))
    )
    with op.batch_alter_table('captcha_challenge', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_captcha_challenge_expires_at'), ['expires_at'], unique=False)

    op.create_table('outbound_message',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('platform_id', sa.Integer(), nullable=False),
    sa.Column('channel', sa.Enum('sms', 'voice', 'email', 'webhook', name='channel', native_enum=False, length=20), nullable=False),
    sa.Column('recipient', sa.String(length=254), nullable=False),
    sa.Column('subject', sa.String(length=200), nullable=True),
    sa.Column('body', sa.Text(), nullable=False),
    sa.Column('sensitive', sa.Boolean(), nullable=False),
    sa.Column('status', sa.Enum('pending', 'sent', 'failed', name='deliverystatus', native_enum=False, length=20), nullable=False),
    sa.Column('attempts', sa.Integer(), nullable=False),
    sa.Column('last_error', sa.String(length=500), nullable=True),
    sa.Column('provider_ref', sa.String(length=100), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('sent_at', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['platform_id'], ['platform.id'], name=op.f('fk_outbound_message_platform_id_platform'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_outbound_message'))
    )
    with op.batch_alter_table('outbound_message', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_outbound_message_platform_id'), ['platform_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_outbound_message_status'), ['status'], unique=False)

    op.create_table('verification_code',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('platform_id', sa.Integer(), nullable=False),
    sa.Column('channel', sa.Enum('phone', 'email', name='codechannel', native_enum=False, length=20), nullable=False),
    sa.Column('target', sa.String(length=254), nullable=False),
    sa.Column('purpose', sa.Enum('login', 'register', 'forgot', 'bind', name='codepurpose', native_enum=False, length=20), nullable=False),
    sa.Column('code_hash', sa.String(length=64), nullable=False),
    sa.Column('attempts', sa.Integer(), nullable=False),
    sa.Column('client_ip', sa.String(length=45), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('expires_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('consumed_at', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['platform_id'], ['platform.id'], name=op.f('fk_verification_code_platform_id_platform'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_verification_code'))
    )
    with op.batch_alter_table('verification_code', schema=None) as batch_op:
        batch_op.create_index('ix_verification_code_lookup', ['platform_id', 'channel', 'target', 'created_at'], unique=False)

    op.create_table('account_session',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('account_id', sa.Integer(), nullable=False),
    sa.Column('platform_id', sa.Integer(), nullable=False),
    sa.Column('token_hash', sa.String(length=64), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('expires_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('revoked_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('client_ip', sa.String(length=45), nullable=True),
    sa.Column('user_agent', sa.String(length=255), nullable=True),
    sa.ForeignKeyConstraint(['account_id'], ['account.id'], name=op.f('fk_account_session_account_id_account'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['platform_id'], ['platform.id'], name=op.f('fk_account_session_platform_id_platform'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_account_session')),
    sa.UniqueConstraint('token_hash', name=op.f('uq_account_session_token_hash'))
    )
    with op.batch_alter_table('account_session', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_account_session_account_id'), ['account_id'], unique=False)

    with op.batch_alter_table('account', schema=None) as batch_op:
        batch_op.add_column(sa.Column('account_photo', sa.String(length=255), nullable=True))
        batch_op.add_column(sa.Column('home_page', sa.String(length=100), nullable=True))
        batch_op.add_column(sa.Column('failed_logins', sa.Integer(), server_default=sa.text('0'), nullable=False))
        batch_op.add_column(sa.Column('locked_until', sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column('wechat_followed', sa.Boolean(), server_default=sa.false(), nullable=False))



def downgrade():
    with op.batch_alter_table('account', schema=None) as batch_op:
        batch_op.drop_column('wechat_followed')
        batch_op.drop_column('locked_until')
        batch_op.drop_column('failed_logins')
        batch_op.drop_column('home_page')
        batch_op.drop_column('account_photo')

    with op.batch_alter_table('account_session', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_account_session_account_id'))

    op.drop_table('account_session')
    with op.batch_alter_table('verification_code', schema=None) as batch_op:
        batch_op.drop_index('ix_verification_code_lookup')

    op.drop_table('verification_code')
    with op.batch_alter_table('outbound_message', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_outbound_message_status'))
        batch_op.drop_index(batch_op.f('ix_outbound_message_platform_id'))

    op.drop_table('outbound_message')
    with op.batch_alter_table('captcha_challenge', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_captcha_challenge_expires_at'))

    op.drop_table('captcha_challenge')
