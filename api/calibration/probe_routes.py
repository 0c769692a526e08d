"""A device's probe certificates (issue 48), on the calibration blueprint: `/api/calibration/ProbeCertificate/`
list (every probe's certificates, status, overdue since, the correction setting), correction (apply
the certificates' correction to displayed and exported values), add (an outside lab's certificate), upload (its
PDF), download and delete. Reading needs the device's view; changing it, operating its records."""

from __future__ import annotations

from flask.views import MethodView

from api.calibration import probes
from api.calibration.probe_schemas import (
    CorrectionSettingSchema,
    DeviceCalibrationSchema,
    ProbeCertificateIdSchema,
    ProbeCertificateInputSchema,
    ProbeCertificateSchema,
    ProbeFileAnswerSchema,
)
from api.calibration.routes import blp, missing, pdf_response
from api.calibration.schemas import DeviceQuerySchema, FileUploadSchema
from api.extensions.smorest import OPERATE, ErrorEnvelopeSchema


@blp.route("/ProbeCertificate/list")
class ProbeCertificateList(MethodView):
    @blp.requires("device.list.query", device="deviceId", block="records")
    @blp.arguments(DeviceQuerySchema, location="query")
    @blp.response(200, DeviceCalibrationSchema)
    @missing()
    def get(self, args):
        """Per probe of a device: its certificates (the lab's and outside labs'), newest first, its
        status (none, valid, due_soon, overdue, failed) and since when it is overdue."""
        return probes.listing(args["deviceId"])


@blp.route("/ProbeCertificate/add")
class ProbeCertificateAdd(MethodView):
    @blp.requires("device.list.edit", device="deviceId", access=OPERATE, block="records")
    @blp.arguments(ProbeCertificateInputSchema)
    @blp.response(200, ProbeCertificateSchema)
    @missing()
    def post(self, args):
        """Add an outside lab's certificate of probes of the device (its PDF through upload)."""
        return probes.add(args)


@blp.route("/ProbeCertificate/upload")
class ProbeCertificateUpload(MethodView):
    @blp.requires("device.list.edit", probe_certificate="id", access=OPERATE, block="records")
    @blp.arguments(ProbeCertificateIdSchema, location="query")
    @blp.arguments(FileUploadSchema, location="files")
    @blp.response(200, ProbeFileAnswerSchema)
    @blp.alt_response(413, schema=ErrorEnvelopeSchema, description="The file is too large (10 MB)")
    @blp.alt_response(415, schema=ErrorEnvelopeSchema, description="Not a PDF (checked by content)")
    @missing()
    def post(self, query, args):
        """Attach (or replace) the PDF of an outside lab's certificate."""
        return probes.attach(query["id"], args["file"])


@blp.route("/ProbeCertificate/download")
class ProbeCertificateDownload(MethodView):
    @blp.requires("device.list.query", probe_certificate="id", block="records")
    @blp.arguments(ProbeCertificateIdSchema, location="query")
    @blp.response(200, description="The certificate's PDF")
    @missing()
    def get(self, args):
        """The PDF of an outside lab's certificate."""
        return pdf_response(*probes.pdf(args["id"]))


@blp.route("/ProbeCertificate/delete/<int:record_id>")
class ProbeCertificateDelete(MethodView):
    @blp.requires("device.list.edit", probe_certificate="record_id", access=OPERATE, block="records")
    @blp.response(200)
    @missing()
    def delete(self, record_id: int):
        """Delete an outside lab's certificate (the lab's own are kept with their orders)."""
        probes.delete(record_id)


@blp.route("/ProbeCertificate/correction")
class ProbeCorrectionSetting(MethodView):
    @blp.requires("device.list.edit", device="deviceId", access=OPERATE, block="records")
    @blp.arguments(CorrectionSettingSchema)
    @blp.response(200, CorrectionSettingSchema)
    @missing()
    def post(self, args):
        """Turn the device's calibration correction on or off: charts and exports then show values
        corrected by each probe's valid certificate (raw values stay stored and are exported beside)."""
        return probes.set_correction(args["deviceId"], args["enabled"])
