from __future__ import annotations

from flask.views import MethodView

from api.audit import services
from api.audit.schemas import OperationLogQuerySchema, OperationLogSchema
from api.extensions.smorest import Blueprint

blp = Blueprint("audit", __name__, url_prefix="/api/base/BaseOperationLog", description="Operation log (read-only)")


@blp.route("/page")
class OperationLogPage(MethodView):
    @blp.login_required("operation.log")
    @blp.arguments(OperationLogQuerySchema)
    @blp.response(200, OperationLogSchema, page=True)
    def post(self, args):
        """Every mutating call of the account and of its organisations' members, newest first:
        who, what, when, the target and the rows before and after. The log cannot be edited."""
        return services.page(args)
