"""FDA calls (/fda, permission `fda`): /api/fda/FdaConfig (FDA mode), /api/fda/Endorsement (signature
meanings), /api/fda/ElectronicSignature (data files, assignment, signing, the signed PDF, the public
verification of a signed PDF's link)."""

from __future__ import annotations

import hashlib

from flask import Response
from flask.views import MethodView

from api.extensions.ratelimit import limiter
from api.extensions.smorest import GXP_REASON, GXP_SIGNATURE, Blueprint, ErrorEnvelopeSchema
from api.fda import endorsements, frozen, mode_off, services, workflow
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
    OffApprovalSchema,
    OffRequestIdSchema,
    OffRequestSchema,
    PublicVerificationSchema,
    SequenceInputSchema,
    SequenceSchema,
    SignSchema,
    VerifyQuerySchema,
    VerifyVersionQuerySchema,
    VersionSealSchema,
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
        """The account's FDA mode (enabled or disabled), when and by whom it last changed, and its pending
        request to turn it off."""
        return mode_off.config()


@blp.route("/FdaConfig/idle")
class FdaConfigIdle(MethodView):
    @blp.requires(FDA, gxp=GXP_SIGNATURE)
    @blp.arguments(IdleMinutesSchema)
    @blp.response(200, FdaConfigSchema)
    def put(self, args):
        """Minutes without a call after which FDA mode signs a session out (signed in FDA mode)."""
        services.set_idle_minutes(args["idleMinutes"])
        return mode_off.config()


@blp.route("/FdaConfig/update")
class FdaConfigUpdate(MethodView):
    @blp.requires(FDA)
    @blp.arguments(FdaConfigUpdateSchema)
    @blp.response(200, FdaConfigSchema)
    def put(self, args):
        """Turn FDA mode on or off: signed with user name and password again, with a reason (audited).
        Off is asked for: it takes a second person's signature (FdaConfig/approveOff), on until then."""
        return mode_off.switch(args)


@blp.route("/FdaConfig/offRequests")
class FdaOffRequests(MethodView):
    @blp.requires(FDA)
    @blp.response(200, OffRequestSchema(many=True))
    def get(self):
        """Requests to turn an owner's FDA mode off that the signed-in account may approve (it administers
        that owner's FDA mode and did not ask)."""
        return mode_off.approvable()


@blp.route("/FdaConfig/approveOff")
class FdaOffApprove(MethodView):
    @blp.requires(FDA)
    @blp.arguments(OffApprovalSchema)
    @blp.response(200)
    @missing()
    def post(self, args):
        """Approve a request to turn FDA mode off, as the second person: signed with your user name and
        password and the meaning. FDA mode goes off."""
        mode_off.approve(args)


@blp.route("/FdaConfig/cancelOff")
class FdaOffCancel(MethodView):
    @blp.requires(FDA)
    @blp.arguments(OffRequestIdSchema)
    @blp.response(200, FdaConfigSchema)
    @missing()
    def post(self, args):
        """Withdraw your own pending request to turn FDA mode off (it stays on)."""
        mode_off.cancel(args["requestId"])
        return mode_off.config()


@blp.route("/Endorsement/page")
class EndorsementPage(MethodView):
    @blp.requires(FDA)
    @blp.arguments(EndorsementQuerySchema)
    @blp.response(200, EndorsementSchema, page=True)
    def post(self, args):
        """The account's endorsements (signature meanings)."""
        return endorsements.endorsement_page(args)


@blp.route("/Endorsement/insert")
class EndorsementInsert(MethodView):
    @blp.requires(FDA)
    @blp.arguments(EndorsementInputSchema)
    @blp.response(200, EndorsementSchema)
    def post(self, args):
        """Add an endorsement: name and description, at most 50 characters each."""
        return endorsements.save_endorsement(args)


@blp.route("/Endorsement/update")
class EndorsementUpdate(MethodView):
    @blp.requires(FDA, fda_endorsement="id")
    @blp.arguments(EndorsementUpdateSchema)
    @blp.response(200, EndorsementSchema)
    @missing()
    def put(self, args):
        """Change an endorsement (signatures keep the meaning they were signed with)."""
        return endorsements.save_endorsement(args)


@blp.route("/Endorsement/delete/<int:endorsement_id>")
class EndorsementDelete(MethodView):
    @blp.requires(FDA, fda_endorsement="endorsement_id")
    @blp.response(200)
    @missing()
    def delete(self, endorsement_id: int):
        """Delete an endorsement."""
        endorsements.delete_endorsement(endorsement_id)


@blp.route("/SigningSequence/get")
class SigningSequenceGet(MethodView):
    @blp.requires(FDA)
    @blp.response(200, SequenceSchema)
    def get(self):
        """The account's signing sequence (default: author, reviewer, approver), each step with its
        meanings and the people allowed to sign it (empty: any)."""
        return workflow.sequence()


@blp.route("/SigningSequence/update")
class SigningSequenceUpdate(MethodView):
    @blp.requires(FDA, gxp=GXP_REASON)
    @blp.arguments(SequenceInputSchema)
    @blp.response(200, SequenceSchema)
    def put(self, args):
        """Replace the signing sequence: 1 to 5 steps in order, each a role (author, reviewer, approver),
        its meanings and its signers. Files already created keep the sequence they were created with."""
        return workflow.save_sequence(args)


@blp.route("/ElectronicSignature/page")
class DataFilePage(MethodView):
    @blp.requires(FDA)
    @blp.arguments(DataFileQuerySchema)
    @blp.response(200, DataFileSchema, page=True)
    def post(self, args):
        """Data files the account created or is the checker of, with their signature."""
        page = services.file_page(args)
        return {"list": [workflow.present(f) for f in page["list"]], "total": page["total"]}


@blp.route("/ElectronicSignature/insert")
class DataFileInsert(MethodView):
    @blp.requires(FDA)
    @blp.arguments(DataFileInputSchema)
    @blp.response(200, DataFileSchema)
    def post(self, args):
        """Create a data file: a device's (storage's, waybill's) data between collectBegin and collectEnd."""
        return workflow.present(services.create_file(args))


@blp.route("/ElectronicSignature/update")
class DataFileUpdate(MethodView):
    @blp.requires(FDA)
    @blp.arguments(DataFileUpdateSchema)
    @blp.response(200, DataFileSchema)
    @missing()
    def put(self, args):
        """Rename a data file or change its window (refused once it is signed)."""
        return workflow.present(services.update_file(args))


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
        return workflow.present(services.visible_file(file_id), with_integrity=True)


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
        """Assign a data file to its checker.

        Assigns the file's current step (or `step`, ahead) to its signer: each step a different
        person, and never the creator for a review or an approval."""
        return workflow.present(workflow.assign(args))


@blp.route("/ElectronicSignature/meanings/<int:file_id>")
class DataFileMeanings(MethodView):
    @blp.requires(FDA)
    @blp.response(200, EndorsementSchema(many=True))
    @missing()
    def get(self, file_id: int):
        """The meanings you may sign the file's current step with: the file owner's endorsements of
        that step, whichever account (owner or member) signs."""
        return workflow.meanings(file_id)


@blp.route("/ElectronicSignature/sign")
class DataFileSign(MethodView):
    @blp.requires(FDA)
    @blp.arguments(SignSchema)
    @blp.response(200, DataFileSchema)
    @missing()
    def post(self, args):
        """Sign a data file assigned to you: user name and password again, and the meaning.

        Signs the file's current step with one of its meanings; the last step's signature makes the
        file signed (frozen), an earlier one leaves it in review."""
        return workflow.present(frozen.sign(args), with_integrity=True)


@blp.route("/ElectronicSignature/pdf")
class DataFilePdf(MethodView):
    @blp.requires(FDA)
    @blp.arguments(DataFileIdSchema)
    @blp.response(200, ExportFileSchema)
    @missing()
    def post(self, args):
        """Queue the signed PDF of a signed data file (download centre): the newest version stored when
        it was signed (the data report with the signature manifestation and a verification link, sealed
        with the platform's PAdES signature), its bytes as they were sealed, never rendered again."""
        export = frozen.request_pdf(args["fileId"])
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
        """Public: confirm a signed document (who signed, when, meaning), whether its record is unaltered,
        and every stored version of it with its hashes."""
        return frozen.verification(args["code"])


@blp.route("/ElectronicSignature/verify/pdf")
class PublicVersionPdf(MethodView):
    decorators = [limiter.limit(PUBLIC_LIMIT, methods=["GET"])]

    @blp.public("the verification link printed on a signed PDF: the unguessable code is the credential")
    @blp.arguments(VerifyVersionQuerySchema, location="query")
    @blp.file_response("application/pdf", description="The version's PDF as it was sealed")
    @missing()
    def get(self, args):
        """Public: download one stored version of a signed PDF, its bytes as they were sealed."""
        name, pdf = frozen.version_pdf(args["code"], args["version"])
        response = Response(pdf, mimetype="application/pdf")
        response.headers.set("Content-Disposition", "attachment", filename=name)
        response.headers["X-Content-SHA256"] = hashlib.sha256(pdf).hexdigest()
        return response


@blp.route("/ElectronicSignature/verify/seal")
class PublicVersionSeal(MethodView):
    decorators = [limiter.limit(PUBLIC_LIMIT, methods=["GET"])]

    @blp.public("the verification link printed on a signed PDF: the unguessable code is the credential")
    @blp.arguments(VerifyVersionQuerySchema, location="query")
    @blp.response(200, VersionSealSchema)
    @missing()
    def get(self, args):
        """Public: check one stored version's PDF seal: intact, the site's certificate trusted, the
        trusted timestamp valid."""
        return frozen.version_seal_check(args["code"], args["version"])
