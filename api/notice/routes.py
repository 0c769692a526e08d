from __future__ import annotations

from flask.views import MethodView

from api.extensions.smorest import Blueprint, ErrorEnvelopeSchema
from api.notice import services
from api.notice.schemas import (
    NoticeInsertSchema,
    NoticePageQuerySchema,
    NoticeQuerySchema,
    NoticeSchema,
    NoticeUpdateSchema,
)

blp = Blueprint("notice", __name__, url_prefix="/api/base/BaseNotice", description="Site announcements")


@blp.route("/queryNoticePage")
class NoticePage(MethodView):
    @blp.requires("notice.list.query")
    @blp.arguments(NoticePageQuerySchema)
    @blp.response(200, NoticeSchema, page=True)
    def post(self, args):
        """Notices of this site, newest first (announcement management)."""
        return services.page(args)


@blp.route("/insert")
class NoticeInsert(MethodView):
    @blp.requires("notice.list.add")
    @blp.arguments(NoticeInsertSchema)
    @blp.response(200, NoticeSchema)
    def post(self, args):
        """Publish a notice on this site; the HTML content is sanitised."""
        return services.insert(args)


@blp.route("/queryNotice")
class NoticeCurrent(MethodView):
    @blp.requires()
    @blp.arguments(NoticeQuerySchema)
    @blp.response(200, NoticeSchema(many=True))
    def post(self, args):
        """The enabled notices a signed-in user of this site should see."""
        return services.current_notices(args)


@blp.route("/updateWithNotEmptyFiled")
class NoticeUpdate(MethodView):
    @blp.requires("notice.list.edit")
    @blp.arguments(NoticeUpdateSchema)
    @blp.response(200, NoticeSchema)
    @blp.alt_response(404, schema=ErrorEnvelopeSchema, description="No such notice on this site")
    def put(self, args):
        """Change the fields that are sent and not empty."""
        return services.update(args)
