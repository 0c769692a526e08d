"""platforms and their domains

Revision ID: 0001
Revises: 
Create Date: 2026-11-21 21:49:43.986201

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0001'
down_revision = None
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('platform',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('slug', sa.String(length=50), nullable=False),
    sa.Column('enterprise_name', sa.String(length=100), nullable=False),
    sa.Column('top_domain', sa.String(length=253), nullable=False),
    sa.Column('titles', sa.JSON(), nullable=False),
    sa.Column('https', sa.Boolean(), nullable=False),
    sa.Column('login_page', sa.String(length=30), nullable=False),
    sa.Column('theme_color', sa.String(length=7), nullable=False),
    sa.Column('style_model', sa.String(length=30), nullable=False),
    sa.Column('default_locale', sa.String(length=5), nullable=False),
    sa.Column('enable_register', sa.Boolean(), nullable=False),
    sa.Column('default_camp', sa.Boolean(), nullable=False),
    sa.Column('independent', sa.Boolean(), nullable=False),
    sa.Column('browser_logo', sa.String(length=255), nullable=True),
    sa.Column('login_logo', sa.String(length=255), nullable=True),
    sa.Column('index_logo', sa.String(length=255), nullable=True),
    sa.Column('login_background', sa.String(length=255), nullable=True),
    sa.Column('record_company', sa.String(length=100), nullable=True),
    sa.Column('record_number', sa.String(length=100), nullable=True),
    sa.Column('record_link', sa.String(length=255), nullable=True),
    sa.Column('remark', sa.String(length=50), nullable=True),
    sa.Column('oauth', sa.JSON(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), server_default=sa.text('(CURRENT_TIMESTAMP)'), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), server_default=sa.text('(CURRENT_TIMESTAMP)'), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_platform')),
    sa.UniqueConstraint('slug', name=op.f('uq_platform_slug')),
    sa.UniqueConstraint('top_domain', name=op.f('uq_platform_top_domain'))
    )
    op.create_table('platform_domain',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('platform_id', sa.Integer(), nullable=False),
    sa.Column('domain', sa.String(length=253), nullable=False),
    sa.ForeignKeyConstraint(['platform_id'], ['platform.id'], name=op.f('fk_platform_domain_platform_id_platform'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_platform_domain')),
    sa.UniqueConstraint('domain', name=op.f('uq_platform_domain_domain'))
    )
    with op.batch_alter_table('platform_domain', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_platform_domain_platform_id'), ['platform_id'], unique=False)


def downgrade():
    with op.batch_alter_table('platform_domain', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_platform_domain_platform_id'))

    op.drop_table('platform_domain')
    op.drop_table('platform')
