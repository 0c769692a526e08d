// Device-side helpers of the e2e specs: upload readings as a demo logger (its credential derives from
// the api's DEVICE_KEY_SECRET, which run.mjs sets), issue a GUID with the api's CLI, and move the
// service expiry of demo devices in the e2e database (set-up and clean-up of the expiry modal test).
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { API_PORT, WEB_PORT } from './browser.mjs';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const PYTHON = path.join(ROOT, '.venv/bin/python');
const FLASK = path.join(ROOT, '.venv/bin/flask');
const DATABASE_URL = process.env.E2E_DATABASE_URL || 'postgresql+psycopg://postgres@127.0.0.1:5432/coldchain_e2e';
const DEVICE_KEY_SECRET = process.env.E2E_DEVICE_KEY_SECRET || `e2e-device-key-secret-${WEB_PORT}`;

/** The credential of a device (api/device/credentials.py: HMAC-SHA256 of "device:{guid}:{version}"). */
export function deviceKey(guid, version = 1) {
  return crypto.createHmac('sha256', DEVICE_KEY_SECRET).update(`device:${guid}:${version}`).digest('hex').slice(0, 32);
}

/** Upload one record of readings ({"1": 4.2}) stamped now, as the device itself. */
export async function uploadNow(guid, readings, host = 'localhost') {
  const response = await fetch(`http://127.0.0.1:${API_PORT}/api/device/DeviceData/upload`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      'X-Device-Id': guid,
      'X-Device-Key': deviceKey(guid),
      'X-Forwarded-Host': `${host}:${WEB_PORT}`,
    },
    body: JSON.stringify({ guid, records: [{ ts: Date.now(), readings }] }),
  });
  const body = await response.json();
  if (response.status !== 200 || body.data?.accepted < 1) throw new Error(`upload for ${guid} refused: ${response.status} ${JSON.stringify(body)}`);
  return body.data;
}

const env = { ...process.env, DATABASE_URL, DEVICE_KEY_SECRET };

/**
 * A new unclaimed GUID of a device type (hex code) on a site (its platform slug; the default site
 * unless told), from `flask issue-guids`.
 */
export function issueGuid(typeCode = '8001', platform = 'default') {
  const args = ['--app', 'api', 'issue-guids', '--platform', platform, '--type-code', typeCode, '--num', '1', '--order-code', 'E2E'];
  const result = spawnSync(FLASK, args, { cwd: ROOT, env, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`issue-guids failed: ${result.stderr}`);
  return result.stdout.trim().split('\n').at(-1).split('\t')[0];
}

const SET_EXPIRY = `
import json, sys
from datetime import UTC, datetime, timedelta
import sqlalchemy as sa
engine = sa.create_engine(sys.argv[1])
changes = json.loads(sys.argv[2])
before = {}
with engine.begin() as connection:
    for name, days in changes.items():
        row = connection.execute(sa.text("SELECT service_expires_at FROM device WHERE name = :n AND deleted = :f"), {"n": name, "f": False}).first()
        before[name] = row[0].isoformat() if row and row[0] else None
        value = datetime.fromisoformat(days) if isinstance(days, str) else datetime.now(UTC) + timedelta(days=days)
        connection.execute(sa.text("UPDATE device SET service_expires_at = :v, data_expires_at = :d WHERE name = :n AND deleted = :f"),
                           {"v": value, "d": value + timedelta(days=91), "n": name, "f": False})
print(json.dumps(before))
`;

/**
 * Set the service expiry of demo devices by name: a number of days from now, or an ISO date (what
 * an earlier call returned, to restore it). Returns the previous values.
 */
export function setServiceExpiry(changes) {
  const result = spawnSync(PYTHON, ['-c', SET_EXPIRY, DATABASE_URL, JSON.stringify(changes)], { cwd: ROOT, env, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`setting the service expiry failed: ${result.stderr}`);
  return JSON.parse(result.stdout.trim().split('\n').at(-1));
}

const MQTT_PORT = process.env.E2E_MQTT_PORT || '1883';
const PUBLISH = `
import json, sys
import paho.mqtt.client as mqtt
port, guid, key, records = int(sys.argv[1]), sys.argv[2], sys.argv[3], json.loads(sys.argv[4])
client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, protocol=mqtt.MQTTv311)
client.connect("127.0.0.1", port)
client.loop_start()
info = client.publish(f"devices/{guid}/telemetry", json.dumps({"guid": guid, "key": key, "records": records}), qos=1)
info.wait_for_publish(timeout=10)
client.disconnect()
client.loop_stop()
sys.exit(0 if info.is_published() else 1)
`;

/**
 * Publish readings as the device does in the field: MQTT 3.1.1, QoS 1, on devices/{guid}/telemetry,
 * to the machine's broker, where the run's `flask ingest mqtt` takes them. Each record is
 * { ts (ms), readings: {"1": 4.2}, battery? }; `key` defaults to the credential the run's secret gives.
 */
export function publishReadings(guid, records, key = deviceKey(guid)) {
  const result = spawnSync(PYTHON, ['-c', PUBLISH, MQTT_PORT, guid, key, JSON.stringify(records)], { cwd: ROOT, env, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`MQTT publish for ${guid} failed: ${result.stderr}`);
}
