"""once-only rules held by the database: a level's free service once per device (free_service_use,
unique), a coupon on one live order (partial unique index), one pending transfer per device (partial
unique index); what a refund took back (billing_order.reversed_items)

Rows the old check-then-insert let through are kept where they are history (paid orders) and only
stop holding the rule: a coupon counted on more than one live order stays on the first (the later
orders keep their price lines, which show the discount); of several pending transfers of one device
the newest stays pending, the others are cancelled.

Revision ID: 0030
Revises: 0029
Create Date: 2026-11-28 05:40:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0030'
down_revision = '0029'
branch_labels = None
depends_on = None

LIVE_COUPON = "coupon_id IS NOT NULL AND pay_status <> 'closed'"
PENDING = "status = 'pending'"


def upgrade():
    op.create_table('free_service_use',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('device_id', sa.Integer(), nullable=False),
    sa.Column('package_id', sa.Integer(), nullable=False),
    sa.Column('level_id', sa.Integer(), nullable=False),
    sa.Column('order_id', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['device_id'], ['device.id'], ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['order_id'], ['billing_order.id'], ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['package_id'], ['service_package.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('device_id', 'package_id', 'level_id')
    )
    with op.batch_alter_table('free_service_use', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_free_service_use_order_id'), ['order_id'], unique=False)
    # The free services already taken (paid, or waiting for their packs to be paid): the first order
    # of each device and level holds it.
    op.execute(
        "INSERT INTO free_service_use (device_id, package_id, level_id, order_id) "
        "SELECT d.device_id, o.package_id, o.level_id, MIN(o.id) FROM billing_order o "
        "JOIN billing_order_device d ON d.order_id = o.id "
        "WHERE o.free_days > 0 AND o.pay_status IN ('paid', 'unpaid') "
        "AND o.package_id IS NOT NULL AND o.level_id IS NOT NULL "
        "GROUP BY d.device_id, o.package_id, o.level_id"
    )

    op.execute(
        "UPDATE billing_order SET coupon_id = NULL WHERE coupon_id IS NOT NULL AND pay_status <> 'closed' "
        "AND id NOT IN (SELECT MIN(id) FROM billing_order WHERE coupon_id IS NOT NULL AND pay_status <> 'closed' "
        "GROUP BY coupon_id)"
    )
    with op.batch_alter_table('billing_order', schema=None) as batch_op:
        batch_op.add_column(sa.Column('reversed_items', sa.JSON(), nullable=True))
        batch_op.create_index(
            'uq_billing_order_coupon_live',
            ['coupon_id'],
            unique=True,
            postgresql_where=sa.text(LIVE_COUPON),
            sqlite_where=sa.text(LIVE_COUPON),
        )

    op.execute(
        "UPDATE device_transfer SET status = 'cancelled' WHERE status = 'pending' "
        "AND id NOT IN (SELECT MAX(id) FROM device_transfer WHERE status = 'pending' GROUP BY device_id)"
    )
    with op.batch_alter_table('device_transfer', schema=None) as batch_op:
        batch_op.create_index(
            'uq_device_transfer_pending',
            ['device_id'],
            unique=True,
            postgresql_where=sa.text(PENDING),
            sqlite_where=sa.text(PENDING),
        )


def downgrade():
    with op.batch_alter_table('device_transfer', schema=None) as batch_op:
        batch_op.drop_index('uq_device_transfer_pending')
    with op.batch_alter_table('billing_order', schema=None) as batch_op:
        batch_op.drop_index('uq_billing_order_coupon_live')
        batch_op.drop_column('reversed_items')
    with op.batch_alter_table('free_service_use', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_free_service_use_order_id'))
    op.drop_table('free_service_use')
