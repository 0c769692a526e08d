"""seals: seal_key (the installation's seal root, its local timestamp authority and each site's
document seal; private keys encrypted at rest with the key-encryption key, old seals kept retired)

Revision ID: 0036
Revises: 0035
Create Date: 2026-11-28 08:40:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0036'
down_revision = '0035'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'seal_key',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('purpose', sa.Enum('root', 'tsa', 'site', 'legacy', name='sealpurpose', native_enum=False, length=10), nullable=False),
        sa.Column('platform_id', sa.Integer(), nullable=True),
        sa.Column('active', sa.Boolean(), nullable=False),
        sa.Column('origin', sa.Enum('generated', 'uploaded', name='sealorigin', native_enum=False, length=10), nullable=False),
        sa.Column('certificate_pem', sa.Text(), nullable=False),
        sa.Column('chain_pem', sa.Text(), nullable=False),
        sa.Column('encrypted_private_key', sa.Text(), nullable=False),
        sa.Column('kek_id', sa.String(length=16), nullable=False),
        sa.Column('key_id', sa.String(length=64), nullable=False),
        sa.Column('subject', sa.String(length=500), nullable=False),
        sa.Column('issuer', sa.String(length=500), nullable=False),
        sa.Column('serial_number', sa.String(length=64), nullable=False),
        sa.Column('not_before', sa.DateTime(timezone=True), nullable=False),
        sa.Column('not_after', sa.DateTime(timezone=True), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('created_by', sa.Integer(), nullable=True),
        sa.Column('retired_at', sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(['platform_id'], ['platform.id'], name=op.f('fk_seal_key_platform_id_platform'), ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_seal_key')),
    )
    with op.batch_alter_table('seal_key', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_seal_key_platform_id'), ['platform_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_seal_key_key_id'), ['key_id'], unique=False)
        batch_op.create_index(
            'uq_seal_key_active_site', ['platform_id'], unique=True,
            postgresql_where=sa.text('active AND platform_id IS NOT NULL'),
            sqlite_where=sa.text('active AND platform_id IS NOT NULL'),
        )
        batch_op.create_index(
            'uq_seal_key_active_installation', ['purpose'], unique=True,
            postgresql_where=sa.text('active AND platform_id IS NULL'),
            sqlite_where=sa.text('active AND platform_id IS NULL'),
        )


def downgrade():
    with op.batch_alter_table('seal_key', schema=None) as batch_op:
        batch_op.drop_index('uq_seal_key_active_installation')
        batch_op.drop_index('uq_seal_key_active_site')
        batch_op.drop_index(batch_op.f('ix_seal_key_key_id'))
        batch_op.drop_index(batch_op.f('ix_seal_key_platform_id'))
    op.drop_table('seal_key')
