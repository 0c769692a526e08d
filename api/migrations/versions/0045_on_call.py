"""on-call schedules: a weekly rota in a time zone with overrides, scoped to the site, an organisation
or a storage; push-setting recipients may be "the person on call" of a schedule (issue 48)

Revision ID: 0045
Revises: 0044
Create Date: 2026-11-28 21:50:00

"""

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = "0045"
down_revision = "0044"
branch_labels = None
depends_on = None

role = sa.table("role", sa.column("id", sa.Integer), sa.column("permissions", sa.JSON))
# A role that could edit push settings may manage schedules; one that could see them may see schedules.
EDITORS, VIEWERS = {"alarm", "alarm.push", "alarm.push.edit"}, {"alarm.push.query"}
EDIT_KEYS = ["alarm.oncall.query", "alarm.oncall.add", "alarm.oncall.edit"]
VIEW_KEYS = ["alarm.oncall.query"]


def upgrade():
    op.create_table(
        "oncall_schedule",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("owner_account_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=50), nullable=False),
        sa.Column("time_zone", sa.String(length=64), nullable=False),
        sa.Column(
            "scope",
            sa.Enum("site", "organization", "storage", name="scope", native_enum=False, length=20),
            nullable=False,
        ),
        sa.Column("organization_id", sa.Integer(), nullable=True),
        sa.Column("storage_id", sa.Integer(), nullable=True),
        sa.Column("rota", sa.JSON(), nullable=False),
        sa.Column("overrides", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=False),
        sa.Column("platform_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["organization_id"], ["organization.id"], name=op.f("fk_oncall_schedule_organization_id_organization"), ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["owner_account_id"], ["account.id"], name=op.f("fk_oncall_schedule_owner_account_id_account"), ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["platform_id"], ["platform.id"], name=op.f("fk_oncall_schedule_platform_id_platform")),
        sa.ForeignKeyConstraint(["storage_id"], ["cold_storage.id"], name=op.f("fk_oncall_schedule_storage_id_cold_storage"), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_oncall_schedule")),
    )
    with op.batch_alter_table("oncall_schedule", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_oncall_schedule_owner_account_id"), ["owner_account_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_oncall_schedule_platform_id"), ["platform_id"], unique=False)
    with op.batch_alter_table("alarm_recipient", schema=None) as batch_op:
        batch_op.add_column(sa.Column("kind", sa.String(length=10), server_default="contact", nullable=False))
        batch_op.add_column(sa.Column("schedule_id", sa.Integer(), nullable=True))
    connection = op.get_bind()
    for role_id, permissions in connection.execute(sa.select(role.c.id, role.c.permissions)).all():
        keys = list(permissions or [])
        added = EDIT_KEYS if EDITORS & set(keys) else VIEW_KEYS if VIEWERS & set(keys) else []
        new = keys + [k for k in added if k not in keys]
        if new != keys:
            connection.execute(role.update().where(role.c.id == role_id).values(permissions=new))


def downgrade():
    connection = op.get_bind()
    for role_id, permissions in connection.execute(sa.select(role.c.id, role.c.permissions)).all():
        keys = [k for k in (permissions or []) if not k.startswith("alarm.oncall")]
        if keys != list(permissions or []):
            connection.execute(role.update().where(role.c.id == role_id).values(permissions=keys))
    with op.batch_alter_table("alarm_recipient", schema=None) as batch_op:
        batch_op.drop_column("schedule_id")
        batch_op.drop_column("kind")
    with op.batch_alter_table("oncall_schedule", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_oncall_schedule_platform_id"))
        batch_op.drop_index(batch_op.f("ix_oncall_schedule_owner_account_id"))
    op.drop_table("oncall_schedule")
