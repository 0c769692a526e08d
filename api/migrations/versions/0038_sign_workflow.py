"""signing workflows (21 CFR 11.50, issue 45 finding 7): an owner account's signing sequence
(fda_signing_step: author, reviewer, approver ... with their meanings and allowed signers), the steps
of a data file assigned ahead (fda_step_assignment), the sequence fixed on each file
(fda_data_file.workflow; NULL: a one-step file from before) and one signature per step
(fda_signature.step / role; existing signatures are step 1)

Revision ID: 0038
Revises: 0037
Create Date: 2026-11-28 08:50:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0038'
down_revision = '0037'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('fda_signing_step',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('owner_account_id', sa.Integer(), nullable=False),
    sa.Column('position', sa.Integer(), nullable=False),
    sa.Column('role', sa.Enum('author', 'reviewer', 'approver', name='steprole', native_enum=False, length=10), nullable=False),
    sa.Column('endorsement_ids', sa.JSON(), nullable=False),
    sa.Column('signer_ids', sa.JSON(), nullable=False),
    sa.Column('platform_id', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['owner_account_id'], ['account.id'], name=op.f('fk_fda_signing_step_owner_account_id_account'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['platform_id'], ['platform.id'], name=op.f('fk_fda_signing_step_platform_id_platform')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_fda_signing_step')),
    sa.UniqueConstraint('owner_account_id', 'position', name=op.f('uq_fda_signing_step_owner_account_id_position'))
    )
    with op.batch_alter_table('fda_signing_step', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_fda_signing_step_owner_account_id'), ['owner_account_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_fda_signing_step_platform_id'), ['platform_id'], unique=False)

    op.create_table('fda_step_assignment',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('file_id', sa.Integer(), nullable=False),
    sa.Column('step', sa.Integer(), nullable=False),
    sa.Column('account_id', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['account_id'], ['account.id'], name=op.f('fk_fda_step_assignment_account_id_account'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['file_id'], ['fda_data_file.id'], name=op.f('fk_fda_step_assignment_file_id_fda_data_file'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_fda_step_assignment')),
    sa.UniqueConstraint('file_id', 'step', name=op.f('uq_fda_step_assignment_file_id_step'))
    )
    with op.batch_alter_table('fda_step_assignment', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_fda_step_assignment_account_id'), ['account_id'], unique=False)

    with op.batch_alter_table('fda_data_file', schema=None) as batch_op:
        batch_op.add_column(sa.Column('workflow', sa.JSON(), nullable=True))

    with op.batch_alter_table('fda_signature', schema=None) as batch_op:
        batch_op.add_column(sa.Column('step', sa.Integer(), server_default='1', nullable=False))
        batch_op.add_column(sa.Column('role', sa.String(length=10), server_default='', nullable=False))
        batch_op.drop_constraint(batch_op.f('uq_fda_signature_file_id'), type_='unique')
        batch_op.create_unique_constraint(batch_op.f('uq_fda_signature_file_id_step'), ['file_id', 'step'])
        batch_op.create_index(batch_op.f('ix_fda_signature_file_id'), ['file_id'], unique=False)


def downgrade():
    # Signatures beyond the first step of a file have no place in the one-signature table.
    op.execute('DELETE FROM fda_signature WHERE step > 1')
    with op.batch_alter_table('fda_signature', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_fda_signature_file_id'))
        batch_op.drop_constraint(batch_op.f('uq_fda_signature_file_id_step'), type_='unique')
        batch_op.create_unique_constraint(batch_op.f('uq_fda_signature_file_id'), ['file_id'])
        batch_op.drop_column('role')
        batch_op.drop_column('step')

    with op.batch_alter_table('fda_data_file', schema=None) as batch_op:
        batch_op.drop_column('workflow')

    op.drop_table('fda_step_assignment')
    op.drop_table('fda_signing_step')
