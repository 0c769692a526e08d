"""probe calibration: outside labs' certificates bound to a device's probes, and the due-date reminders sent

Revision ID: 0046
Revises: 0045
Create Date: 2026-11-28 22:00:00

"""

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = "0046"
down_revision = "0045"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "calibration_probe_certificate",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("device_id", sa.Integer(), nullable=False),
        sa.Column("sensors", sa.JSON(), nullable=False),
        sa.Column("number", sa.String(length=40), nullable=False),
        sa.Column("issuer", sa.String(length=100), nullable=False),
        sa.Column("calibrated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("due_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("points", sa.JSON(), nullable=False),
        sa.Column("passed", sa.Boolean(), nullable=False),
        sa.Column("file_name", sa.String(length=100), nullable=True),
        sa.Column("content", sa.LargeBinary(), nullable=True),
        sa.Column("sha256", sa.String(length=64), nullable=True),
        sa.Column("uploaded_by", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("platform_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["device_id"], ["device.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["uploaded_by"], ["account.id"], ondelete="SET NULL"),
        sa.ForeignKeyConstraint(["platform_id"], ["platform.id"]),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index(
        "ix_calibration_probe_certificate_device_id", "calibration_probe_certificate", ["device_id"], unique=False
    )
    op.create_index(
        "ix_calibration_probe_certificate_platform_id", "calibration_probe_certificate", ["platform_id"], unique=False
    )
    op.create_table(
        "calibration_reminder",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("cert_key", sa.String(length=40), nullable=False),
        sa.Column("days", sa.Integer(), nullable=False),
        sa.Column("sent_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("cert_key", "days"),
    )


def downgrade():
    op.drop_table("calibration_reminder")
    op.drop_index("ix_calibration_probe_certificate_platform_id", table_name="calibration_probe_certificate")
    op.drop_index("ix_calibration_probe_certificate_device_id", table_name="calibration_probe_certificate")
    op.drop_table("calibration_probe_certificate")
