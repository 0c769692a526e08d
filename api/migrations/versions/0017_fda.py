"""FDA 21 CFR Part 11: FDA mode, endorsements, data files and signatures; the operation log's hash chain

Revision ID: 0017
Revises: 0016
Create Date: 2026-11-24 06:40:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0017'
down_revision = '0016'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('operation_log', schema=None) as batch_op:
        batch_op.add_column(sa.Column('reason', sa.String(length=200), nullable=True))
        batch_op.add_column(sa.Column('seq', sa.BigInteger(), nullable=True))
        batch_op.add_column(sa.Column('prev_hash', sa.String(length=64), nullable=True))
        batch_op.add_column(sa.Column('entry_hash', sa.String(length=64), nullable=True))
        batch_op.create_index('ix_operation_log_chain', ['platform_id', 'seq'], unique=True)
    op.create_table('audit_chain_head',
    sa.Column('platform_id', sa.Integer(), nullable=False),
    sa.Column('seq', sa.BigInteger(), nullable=False),
    sa.Column('last_hash', sa.String(length=64), nullable=False),
    sa.ForeignKeyConstraint(['platform_id'], ['platform.id'], name=op.f('fk_audit_chain_head_platform_id_platform'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('platform_id', name=op.f('pk_audit_chain_head'))
    )
    op.create_table('fda_setting',
    sa.Column('account_id', sa.Integer(), nullable=False),
    sa.Column('enabled', sa.Boolean(), nullable=False),
    sa.Column('changed_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('changed_by', sa.Integer(), nullable=True),
    sa.Column('platform_id', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['account_id'], ['account.id'], name=op.f('fk_fda_setting_account_id_account'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['changed_by'], ['account.id'], name=op.f('fk_fda_setting_changed_by_account'), ondelete='SET NULL'),
    sa.ForeignKeyConstraint(['platform_id'], ['platform.id'], name=op.f('fk_fda_setting_platform_id_platform')),
    sa.PrimaryKeyConstraint('account_id', name=op.f('pk_fda_setting'))
    )
    with op.batch_alter_table('fda_setting', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_fda_setting_platform_id'), ['platform_id'], unique=False)
    op.create_table('fda_endorsement',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('owner_account_id', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=50), nullable=False),
    sa.Column('description', sa.String(length=50), nullable=False),
    sa.Column('platform_id', sa.Integer(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), server_default=sa.text('(CURRENT_TIMESTAMP)'), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), server_default=sa.text('(CURRENT_TIMESTAMP)'), nullable=False),
    sa.ForeignKeyConstraint(['owner_account_id'], ['account.id'], name=op.f('fk_fda_endorsement_owner_account_id_account'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['platform_id'], ['platform.id'], name=op.f('fk_fda_endorsement_platform_id_platform')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_fda_endorsement')),
    sa.UniqueConstraint('owner_account_id', 'name', name=op.f('uq_fda_endorsement_owner_account_id_name'))
    )
    with op.batch_alter_table('fda_endorsement', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_fda_endorsement_owner_account_id'), ['owner_account_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_fda_endorsement_platform_id'), ['platform_id'], unique=False)
    op.create_table('fda_data_file',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('owner_account_id', sa.Integer(), nullable=False),
    sa.Column('file_name', sa.String(length=100), nullable=False),
    sa.Column('subject_type', sa.Enum('device', 'storage', 'waybill', name='subjecttype', native_enum=False, length=10), nullable=False),
    sa.Column('subject_id', sa.Integer(), nullable=False),
    sa.Column('collect_begin', sa.DateTime(timezone=True), nullable=False),
    sa.Column('collect_end', sa.DateTime(timezone=True), nullable=False),
    sa.Column('time_zone', sa.String(length=64), nullable=False),
    sa.Column('checker_account_id', sa.Integer(), nullable=True),
    sa.Column('assign_state', sa.Enum('unassigned', 'assigned', name='assignstate', native_enum=False, length=12), nullable=False),
    sa.Column('sign_state', sa.Enum('unsigned', 'signed', name='signstate', native_enum=False, length=10), nullable=False),
    sa.Column('verify_code', sa.String(length=32), nullable=False),
    sa.Column('export_file_id', sa.Integer(), nullable=True),
    sa.Column('platform_id', sa.Integer(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), server_default=sa.text('(CURRENT_TIMESTAMP)'), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), server_default=sa.text('(CURRENT_TIMESTAMP)'), nullable=False),
    sa.ForeignKeyConstraint(['checker_account_id'], ['account.id'], name=op.f('fk_fda_data_file_checker_account_id_account'), ondelete='SET NULL'),
    sa.ForeignKeyConstraint(['export_file_id'], ['export_file.id'], name=op.f('fk_fda_data_file_export_file_id_export_file'), ondelete='SET NULL'),
    sa.ForeignKeyConstraint(['owner_account_id'], ['account.id'], name=op.f('fk_fda_data_file_owner_account_id_account'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['platform_id'], ['platform.id'], name=op.f('fk_fda_data_file_platform_id_platform')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_fda_data_file')),
    sa.UniqueConstraint('verify_code', name=op.f('uq_fda_data_file_verify_code'))
    )
    with op.batch_alter_table('fda_data_file', schema=None) as batch_op:
        batch_op.create_index('ix_fda_data_file_checker', ['checker_account_id', 'id'], unique=False)
        batch_op.create_index(batch_op.f('ix_fda_data_file_owner_account_id'), ['owner_account_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_fda_data_file_platform_id'), ['platform_id'], unique=False)
    op.create_table('fda_signature',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('file_id', sa.Integer(), nullable=False),
    sa.Column('signer_account_id', sa.Integer(), nullable=True),
    sa.Column('printed_name', sa.String(length=50), nullable=False),
    sa.Column('user_name', sa.String(length=50), nullable=False),
    sa.Column('meaning', sa.String(length=50), nullable=False),
    sa.Column('meaning_description', sa.String(length=50), nullable=False),
    sa.Column('signed_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('time_zone', sa.String(length=64), nullable=False),
    sa.Column('record_hash', sa.String(length=64), nullable=False),
    sa.Column('readings', sa.Integer(), nullable=False),
    sa.Column('signature_hash', sa.String(length=64), nullable=False),
    sa.Column('platform_id', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['file_id'], ['fda_data_file.id'], name=op.f('fk_fda_signature_file_id_fda_data_file'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['platform_id'], ['platform.id'], name=op.f('fk_fda_signature_platform_id_platform')),
    sa.ForeignKeyConstraint(['signer_account_id'], ['account.id'], name=op.f('fk_fda_signature_signer_account_id_account'), ondelete='SET NULL'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_fda_signature')),
    sa.UniqueConstraint('file_id', name=op.f('uq_fda_signature_file_id'))
    )
    with op.batch_alter_table('fda_signature', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_fda_signature_platform_id'), ['platform_id'], unique=False)


def downgrade():
    op.drop_table('fda_signature')
    op.drop_table('fda_data_file')
    op.drop_table('fda_endorsement')
    op.drop_table('fda_setting')
    op.drop_table('audit_chain_head')
    with op.batch_alter_table('operation_log', schema=None) as batch_op:
        batch_op.drop_index('ix_operation_log_chain')
        batch_op.drop_column('entry_hash')
        batch_op.drop_column('prev_hash')
        batch_op.drop_column('seq')
        batch_op.drop_column('reason')
