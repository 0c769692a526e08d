from __future__ import annotations

from flask.views import MethodView

from api.extensions.smorest import OPERATE, Blueprint, ErrorEnvelopeSchema
from api.sharing import services, transfers
from api.sharing.schemas import (
    ShareInputSchema,
    SharePageQuerySchema,
    SharePlainSchema,
    ShareSchema,
    ShareUpdateSchema,
    TemplateCodesSchema,
    TemplateInputSchema,
    TemplateSchema,
    TemplateUpdateSchema,
    TransferInputSchema,
    TransferPageQuerySchema,
    TransferPlainSchema,
    TransferSchema,
)

blp = Blueprint("sharing", __name__, url_prefix="/api/device", description="Permission templates, sharing, transfer")
SHARE, SHARER, TRANSFER = "device.list.share", "consumer.sharer", "device.list.transfer"


def missing():
    return blp.alt_response(404, schema=ErrorEnvelopeSchema, description="Not this account's")


@blp.route("/DevicePermissionTemplate/list")
class TemplateList(MethodView):
    @blp.requires(f"{SHARER}.query")
    @blp.response(200, TemplateSchema(many=True))
    def get(self):
        """The account's device permission templates."""
        return services.template_list()


@blp.route("/DevicePermissionTemplate/codes")
class TemplateCodes(MethodView):
    @blp.requires(f"{SHARER}.query")
    @blp.response(200, TemplateCodesSchema)
    def get(self):
        """Parameters (of the account's device types) and blocks a template can show, hide or open."""
        return services.template_codes()


@blp.route("/DevicePermissionTemplate/insert")
class TemplateInsert(MethodView):
    @blp.requires(f"{SHARER}.add")
    @blp.arguments(TemplateInputSchema)
    @blp.response(200, TemplateSchema)
    def post(self, args):
        """Add a permission template (name max 10; per parameter or block: visible, operable)."""
        return services.save_template(args)


@blp.route("/DevicePermissionTemplate/update")
class TemplateUpdate(MethodView):
    @blp.requires(f"{SHARER}.edit")
    @blp.arguments(TemplateUpdateSchema)
    @blp.response(200, TemplateSchema)
    @missing()
    def put(self, args):
        """Change a permission template; shares using it follow at once."""
        return services.save_template(args)


@blp.route("/DevicePermissionTemplate/delete/<int:template_id>")
class TemplateDelete(MethodView):
    @blp.requires(f"{SHARER}.delete")
    @blp.response(200)
    @missing()
    def delete(self, template_id: int):
        """Delete a permission template no share uses."""
        services.delete_template(template_id)


@blp.route("/DeviceShare/insert")
class ShareInsert(MethodView):
    @blp.requires(SHARE, device="deviceIds", access=OPERATE)
    @blp.arguments(ShareInputSchema)
    @blp.response(200, SharePlainSchema(many=True))
    def post(self, args):
        """Share own devices with an account (or invite a phone / email) with a template and an
        expiry of 8 hours, 1, 3 or 7 days, or a custom time."""
        return services.share(args)


@blp.route("/DeviceShare/page")
class SharePage(MethodView):
    @blp.requires(f"{SHARER}.query")
    @blp.arguments(SharePageQuerySchema)
    @blp.response(200, ShareSchema, page=True)
    def post(self, args):
        """Sharer management: the shares the account made (expired ones marked)."""
        return services.shares_given(args)


@blp.route("/DeviceShare/received")
class ShareReceived(MethodView):
    @blp.requires("device.list.query")
    @blp.arguments(SharePageQuerySchema)
    @blp.response(200, ShareSchema, page=True)
    def post(self, args):
        """Devices shared with the account."""
        return services.shares_received(args)


@blp.route("/DeviceShare/update")
class ShareUpdate(MethodView):
    @blp.requires(f"{SHARER}.edit")
    @blp.arguments(ShareUpdateSchema)
    @blp.response(200, SharePlainSchema)
    @missing()
    def put(self, args):
        """Change a share's name, template or expiry."""
        return services.update_share(args)


@blp.route("/DeviceShare/delete/<int:share_id>")
class ShareDelete(MethodView):
    @blp.requires(f"{SHARER}.delete")
    @blp.response(200)
    @missing()
    def delete(self, share_id: int):
        """Stop sharing (access ends at once)."""
        services.revoke(share_id)


@blp.route("/DeviceShare/quit/<int:share_id>")
class ShareQuit(MethodView):
    @blp.requires("device.list.query")
    @blp.response(200)
    @missing()
    def delete(self, share_id: int):
        """Give back a device shared with the account."""
        services.leave(share_id)


@blp.route("/DeviceTransfer/insert")
class TransferInsert(MethodView):
    @blp.requires(TRANSFER, device="deviceId", access=OPERATE)
    @blp.arguments(TransferInputSchema)
    @blp.response(200, TransferPlainSchema)
    def post(self, args):
        """Offer an own device to another account; it moves when the recipient consents."""
        return transfers.offer_transfer(args)


@blp.route("/DeviceTransfer/page")
class TransferPage(MethodView):
    @blp.requires("device.list.query")
    @blp.arguments(TransferPageQuerySchema)
    @blp.response(200, TransferSchema, page=True)
    def post(self, args):
        """Transfers offered by or to the account."""
        return transfers.transfer_page(args)


def _decision(name: str, accept: bool, summary: str):
    class Decision(MethodView):
        @blp.requires("device.list.query")
        @blp.response(200, TransferPlainSchema)
        @missing()
        def put(self, transfer_id: int):
            return transfers.decide_transfer(transfer_id, accept)

    Decision.put.__doc__ = summary
    Decision.__name__ = name
    return Decision


blp.route("/DeviceTransfer/accept/<int:transfer_id>")(
    _decision("TransferAccept", True, "Consent to a transfer: the device becomes the account's.")
)
blp.route("/DeviceTransfer/reject/<int:transfer_id>")(
    _decision("TransferReject", False, "Refuse a transfer: the device stays with its owner.")
)


@blp.route("/DeviceTransfer/cancel/<int:transfer_id>")
class TransferCancel(MethodView):
    @blp.requires(TRANSFER)
    @blp.response(200, TransferPlainSchema)
    @missing()
    def put(self, transfer_id: int):
        """Withdraw a transfer offer not decided yet."""
        return transfers.cancel_transfer(transfer_id)
