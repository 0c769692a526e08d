"""Operator and developer commands: sync-tenants, seed-demo, issue-guids, ingest mqtt, simulate,
data-interface-send, compact-readings; the audit and validation groups are their areas' own."""

from __future__ import annotations

from datetime import timedelta

import click
from flask import Flask, current_app
from sqlalchemy import select

from api import demo
from api.audit import commands as audit_commands
from api.datainterface import delivery as data_interface
from api.device.models import DeviceType
from api.device.services import issue_guids
from api.extensions.db import db, utcnow
from api.extensions.mqtt import new_client
from api.platform.models import Platform
from api.platform.services import TenantDefinitionError, sync_tenants
from api.report import commands as backup_commands
from api.seals import commands as seal_commands
from api.storage.controller import attach
from api.telemetry import simulator
from api.telemetry.compaction import compact
from api.telemetry.mqtt import run_subscriber
from api.telemetry.upgrader import attach_upgrades, upgrading_fleet
from api.validation import commands as validation_commands


def _sync_or_fail():
    try:
        return {platform.slug: platform for platform in sync_tenants()}
    except TenantDefinitionError as exc:
        raise click.ClickException(f"tenant definitions are invalid:\n{exc}") from exc


def register_commands(app: Flask) -> None:
    audit_commands.register(app)
    backup_commands.register(app)
    seal_commands.register(app)
    validation_commands.register(app)

    @app.cli.command("sync-tenants")
    def sync_tenants_command() -> None:
        """Create or update the platforms defined under tenants/."""
        for slug, platform in _sync_or_fail().items():
            click.echo(f"{slug}: {', '.join(d.domain for d in platform.domains)} ({platform.style_model})")

    @app.cli.command("seed-demo")
    @click.option("--days", default=30, show_default=True, help="days of history to back-fill")
    def seed_demo_command(days: int) -> None:
        """Demo tenants, accounts, devices and history; safe to run again (tops history up)."""
        _sync_or_fail()
        for user_name, password in demo.seed(timedelta(days=days)):
            click.echo(f"demo login: {user_name} / {password}")

    @app.cli.command("issue-guids")
    @click.option("--platform", "slug", default="default", show_default=True)
    @click.option("--type-code", required=True, help="device type code in hex, e.g. 8002")
    @click.option("--num", type=click.IntRange(1, 999), required=True)
    @click.option("--order-code", required=True)
    def issue_guids_command(slug: str, type_code: str, num: int, order_code: str) -> None:
        """Issue GUIDs for a device type; prints each GUID and its device credential."""
        platform = db.session.scalar(select(Platform).where(Platform.slug == slug))
        device_type = db.session.scalar(select(DeviceType).where(DeviceType.type_code == int(type_code, 16)))
        if platform is None or device_type is None:
            raise click.ClickException("unknown platform or device type")
        for guid, key in issue_guids(platform, device_type, num, order_code[:20]):
            click.echo(f"{guid}\t{key}")

    @app.cli.group("ingest")
    def ingest_group() -> None:
        """Ingestion processes."""

    @ingest_group.command("mqtt")
    @click.option("--workers", type=click.IntRange(1, 64), default=1, show_default=True, help="subscriber processes")
    @click.option("--client-id", default="coldchain-ingest", show_default=True, help="(suffixed -N per worker)")
    def ingest_mqtt_command(workers: int, client_id: str) -> None:
        """Subscribe to $share/<MQTT_SHARE_GROUP>/devices/+/telemetry and ingest (MQTT v5, QoS 1,
        persistent sessions); --workers N runs N subscriber processes that split the messages."""
        run_subscriber(current_app._get_current_object(), client_id, workers)

    @app.cli.command("data-interface-send")
    def data_interface_send_command() -> None:
        """Log the finished intervals of the enabled provincial connectors and send the due ones now,
        in this process (what the cron tick and the workers do; for catching up without them)."""
        counts = data_interface.send_due()
        click.echo(", ".join(f"{status}: {count}" for status, count in counts.items()) or "nothing due")

    @app.cli.command("compact-readings")
    @click.option("--days", type=click.IntRange(1, 36500), default=None, help="pack readings older than this")
    def compact_readings_command(days: int | None) -> None:
        """Pack readings older than READING_PACK_AFTER_DAYS (or --days, not fewer) per device, sensor
        and UTC day (PostgreSQL; what the nightly job does). Safe to rerun and while ingestion runs."""
        setting = current_app.config["READING_PACK_AFTER_DAYS"]
        if days is not None and days < setting:
            # The store checks for packed duplicates only beyond its horizon (the setting).
            raise click.BadParameter(f"at least READING_PACK_AFTER_DAYS ({setting})", param_hint="--days")
        result = compact(db.engine, utcnow(), days or setting)
        click.echo(
            f"moved {result.readings} readings into {result.packed_rows} packed rows in {result.chunks} chunks"
            f" ({result.seconds:.1f} s); truncated: {', '.join(result.truncated) or 'none'}"
        )

    @app.cli.command("simulate")
    @click.option("--api-url", default="http://127.0.0.1:5000", show_default=True, help="for HTTP uploads")
    @click.option("--host", default="localhost", show_default=True, help="site host the uploads name")
    @click.option("--tick", default=10.0, show_default=True, help="seconds between upload rounds")
    @click.option("--duration", type=float, default=None, help="stop after this many seconds")
    @click.option("--transport", type=click.Choice(["auto", "mqtt", "http"]), default="auto", show_default=True)
    @click.option("--gaps/--no-gaps", default=True, show_default=True, help="the daily 40-minute silences")
    def simulate_command(
        api_url: str, host: str, tick: float, duration: float | None, transport: str, gaps: bool
    ) -> None:
        """Run the demo loggers: MQTT when a broker is reachable, else HTTP."""
        devices = demo.simulated_fleet()
        failing = demo.failing_upgrade_guids()
        db.session.remove()
        sender = None
        if transport in ("auto", "mqtt"):
            try:
                client = new_client("coldchain-simulator")
                attach(client, devices)  # cold-room controllers obey cloud-control commands
                # Every demo device takes firmware upgrades, except one that fails them.
                attach_upgrades(client, upgrading_fleet(devices, failing))
                client.loop_start()
                sender = simulator.MqttSender(client)
            except OSError as exc:
                if transport == "mqtt":
                    raise click.ClickException(f"MQTT broker unreachable: {exc}") from exc
        if sender is None:
            sender = simulator.HttpSender(api_url, host)
        click.echo(
            f"simulating {len(devices)} devices over {'MQTT' if isinstance(sender, simulator.MqttSender) else 'HTTP'}"
        )
        sent = simulator.run(devices, sender, tick_s=tick, stop_after=duration, gaps=gaps)
        click.echo(f"sent {sent} records")
