"""The framework's floor for one-record uploads (issue 27): a bare Flask app on the same gunicorn and
clients as the fleet's HTTP run, which parses the upload and answers as the api does, without the
database, authentication or validation. The api's rate as a ratio to it is what our code costs."""

from __future__ import annotations

from flask import Flask, jsonify, request

app = Flask(__name__)


@app.post("/api/device/DeviceData/upload")
def upload():
    body = request.get_json()
    if not request.headers.get("X-Device-Key") or body.get("guid") != request.headers.get("X-Device-Id"):
        return jsonify({"code": 401, "msg": "bad credential"}), 401
    readings = sum(len(record.get("readings", {})) for record in body.get("records", []))
    return jsonify({"code": 0, "msg": "ok", "data": {"accepted": readings, "duplicates": 0, "rejected": []}})
