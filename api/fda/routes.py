"""FDA calls (/fda, permission `fda`): /api/fda/FdaConfig (FDA mode), /api/fda/Endorsement (signature
meanings), /api/fda/ElectronicSignature (data files, assignment, signing, the signed PDF, the public
verification of a signed PDF's link)."""

from __future__ import annotations

from flask.views import MethodView

from api.extensions.ratelimit import limiter
from api.extensions.smorest import GXP_SIGNATURE, Blueprint, ErrorEnvelopeSchema
from api.fda import documents, services
from api.fda.schemas import (
    AssignSchema,
    CheckerSchema,
    DataFileIdSchema,
    DataFileInputSchema,
    DataFileQuerySchema,
    DataFileSchema,
    DataFileUpdateSchema,
    EndorsementInputSchema,
    EndorsementQuerySchema,
    EndorsementSchema,
    EndorsementUpdateSchema,
    FdaConfigSchema,
    FdaConfigUpdateSchema,
    IdleMinutesSchema,
    PublicVerificationSchema,
    SignSchema,
    VerifyQuerySchema,
)
from api.report.jobs import enqueue_generation
from api.report.schemas import ExportFileSchema

blp = Blueprint("fda", __name__, url_prefix="/api/fda", description="FDA 21 CFR Part 11: endorsements, signatures")
FDA = "fda"
PUBLIC_LIMIT = "30 per minute"


def missing():
    return blp.alt_response(404, schema=ErrorEnvelopeSchema, description="Not an object this account reaches")


@blp.route("/FdaConfig/get")
class FdaConfigGet(MethodView):
    @blp.requires(FDA)
    @blp.response(200, FdaConfigSchema)
    def get(self):
        """The account's FDA mode (enabled or disabled), when and by whom it last changed."""
        return services.config()


@blp.route("/FdaConfig/idle")
class FdaConfigIdle(MethodView):
    @blp.requires(FDA, gxp=GXP_SIGNATURE)
    @blp.arguments(IdleMinutesSchema)
    @blp.response(200, FdaConfigSchema)
    def put(self, args):
        """Minutes without a call after which FDA mode signs a session out (signed in FDA mode)."""
        return services.set_idle_minutes(args["idleMinutes"])


@blp.route("/FdaConfig/update")
class FdaConfigUpdate(MethodView):
    @blp.requires(FDA)
    @blp.arguments(FdaConfigUpdateSchema)
    @blp.response(200, FdaConfigSchema)
    def put(self, args):
        """Turn FDA mode on or off: signed with user name and password again, with a reason (audited)."""
        return services.set_enabled(args)


@blp.route("/Endorsement/page")
class EndorsementPage(MethodView):
    @blp.requires(FDA)
    @blp.arguments(EndorsementQuerySchema)
    @blp.response(200, EndorsementSchema, page=True)
    def post(self, args):
        """The account's endorsements (signature meanings)."""
        return services.endorsement_page(args)


@blp.route("/Endorsement/insert")
class EndorsementInsert(MethodView):
    @blp.requires(FDA)
    @blp.arguments(EndorsementInputSchema)
    @blp.response(200, EndorsementSchema)
    def post(self, args):
        """Add an endorsement: name and description, at most 50 characters each."""
        return services.save_endorsement(args)


@blp.route("/Endorsement/update")
class EndorsementUpdate(MethodView):
    @blp.requires(FDA, fda_endorsement="id")
    @blp.arguments(EndorsementUpdateSchema)
    @blp.response(200, EndorsementSchema)
    @missing()
    def put(self, args):
        """Change an endorsement (signatures keep the meaning they were signed with)."""
        return services.save_endorsement(args)


@blp.route("/Endorsement/delete/<int:endorsement_id>")
class EndorsementDelete(MethodView):
    @blp.requires(FDA, fda_endorsement="endorsement_id")
    @blp.response(200)
    @missing()
    def delete(self, endorsement_id: int):
        """Delete an endorsement."""
        services.delete_endorsement(endorsement_id)


@blp.route("/ElectronicSignature/page")
class DataFilePage(MethodView):
    @blp.requires(FDA)
    @blp.arguments(DataFileQuerySchema)
    @blp.response(200, DataFileSchema, page=True)
    def post(self, args):
        """Data files the account created or is the checker of, with their signature."""
        page = services.file_page(args)
        return {"list": [services.present(f) for f in page["list"]], "total": page["total"]}


@blp.route("/ElectronicSignature/insert")
class DataFileInsert(MethodView):
    @blp.requires(FDA)
    @blp.arguments(DataFileInputSchema)
    @blp.response(200, DataFileSchema)
    def post(self, args):
        """Create a data file: a device's (storage's, waybill's) data between collectBegin and collectEnd."""
        return services.present(services.create_file(args))


@blp.route("/ElectronicSignature/update")
class DataFileUpdate(MethodView):
    @blp.requires(FDA)
    @blp.arguments(DataFileUpdateSchema)
    @blp.response(200, DataFileSchema)
    @missing()
    def put(self, args):
        """Rename a data file or change its window (refused once it is signed)."""
        return services.present(services.update_file(args))


@blp.route("/ElectronicSignature/delete/<int:file_id>")
class DataFileDelete(MethodView):
    @blp.requires(FDA)
    @blp.response(200)
    @missing()
    def delete(self, file_id: int):
        """Delete an unsigned data file."""
        services.delete_file(file_id)


@blp.route("/ElectronicSignature/detail/<int:file_id>")
class DataFileDetail(MethodView):
    @blp.requires(FDA)
    @blp.response(200, DataFileSchema)
    @missing()
    def get(self, file_id: int):
        """A data file with its signature and whether the record still matches the signed hash."""
        return services.present(services.visible_file(file_id), with_integrity=True)


@blp.route("/ElectronicSignature/checkers")
class Checkers(MethodView):
    @blp.requires(FDA)
    @blp.response(200, CheckerSchema(many=True))
    def get(self):
        """Who may check the account's files: itself and the members of its organisations."""
        return services.checker_candidates()


@blp.route("/ElectronicSignature/assign")
class DataFileAssign(MethodView):
    @blp.requires(FDA)
    @blp.arguments(AssignSchema)
    @blp.response(200, DataFileSchema)
    @missing()
    def put(self, args):
        """Assign a data file to its checker."""
        return services.present(services.assign(args))


@blp.route("/ElectronicSignature/sign")
class DataFileSign(MethodView):
    @blp.requires(FDA)
    @blp.arguments(SignSchema)
    @blp.response(200, DataFileSchema)
    @missing()
    def post(self, args):
        """Sign a data file assigned to you: user name and password again, and the meaning."""
        return services.present(services.sign(args), with_integrity=True)


@blp.route("/ElectronicSignature/pdf")
class DataFilePdf(MethodView):
    @blp.requires(FDA)
    @blp.arguments(DataFileIdSchema)
    @blp.response(200, ExportFileSchema)
    @missing()
    def post(self, args):
        """Queue the signed PDF of a signed data file (download centre): the data report with the
        signature manifestation and a verification link, sealed with the platform's PAdES signature."""
        export = documents.request_pdf(args["fileId"])
        enqueue_generation(export)
        return export


@blp.route("/ElectronicSignature/verify")
class PublicVerify(MethodView):
    decorators = [limiter.limit(PUBLIC_LIMIT, methods=["GET"])]

    @blp.public("the verification link printed on a signed PDF: the unguessable code is the credential")
    @blp.arguments(VerifyQuerySchema, location="query")
    @blp.response(200, PublicVerificationSchema)
    @missing()
    def get(self, args):
        """Public: confirm a signed document (who signed, when, meaning) and whether its record is unaltered."""
        return documents.verification(args["code"])
