"""platform seller details: the site's company address and tax id, shown as the seller on receipts

Revision ID: 0043
Revises: 0042
Create Date: 2026-11-28 15:10:00

"""

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = "0043"
down_revision = "0042"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("platform", schema=None) as batch_op:
        batch_op.add_column(sa.Column("company_address", sa.String(length=200), nullable=True))
        batch_op.add_column(sa.Column("tax_id", sa.String(length=30), nullable=True))


def downgrade():
    with op.batch_alter_table("platform", schema=None) as batch_op:
        batch_op.drop_column("tax_id")
        batch_op.drop_column("company_address")
