from __future__ import annotations

from flask.views import MethodView

from api.extensions.smorest import Blueprint, ErrorEnvelopeSchema
from api.help import services
from api.help.schemas import (
    HelpArticleIdSchema,
    HelpArticleInsertSchema,
    HelpArticlePageQuerySchema,
    HelpArticleReadSchema,
    HelpArticleSchema,
    HelpArticleSummarySchema,
    HelpArticleUpdateSchema,
    HelpCategoryIdSchema,
    HelpCategoryInsertSchema,
    HelpCategoryQuerySchema,
    HelpCategorySchema,
    HelpCategoryUpdateSchema,
    HelpCenterCategorySchema,
    HelpImageSchema,
    HelpImageUploadSchema,
    HelpSearchSchema,
)

blp = Blueprint("help", __name__, url_prefix="/api/base", description="Help centre")

KEY = "help.list"
PUBLIC = "the help centre is public (spec 2.1: help.center, mobile.help.*): published articles only"


def missing():
    return blp.alt_response(404, schema=ErrorEnvelopeSchema, description="No such category or article on this site")


# ---- the public help centre ----------------------------------------------------------------------------------


@blp.route("/BaseHelp/center")
class HelpCenter(MethodView):
    @blp.public(PUBLIC)
    @blp.response(200, HelpCenterCategorySchema(many=True))
    def get(self):
        """Categories of this site in the request's language with their published article titles, in order."""
        return services.center()


@blp.route("/BaseHelp/search")
class HelpSearch(MethodView):
    @blp.public(PUBLIC)
    @blp.arguments(HelpSearchSchema)
    @blp.response(200, HelpArticleSummarySchema, page=True)
    def post(self, args):
        """Published articles whose title or body contains the keyword, with a plain-text summary."""
        return services.search(args)


@blp.route("/BaseHelp/article/<int:articleId>")
class HelpRead(MethodView):
    @blp.public(PUBLIC)
    @blp.response(200, HelpArticleReadSchema)
    @missing()
    def get(self, articleId):  # noqa: N803 - spec-style path parameter
        """One published article (sanitised HTML); another site's, language's or an unpublished one is 404."""
        return services.read(articleId)


@blp.route("/BaseHelp/image/<name>")
class HelpImage(MethodView):
    @blp.public("help images are addressed by unguessable generated names and shown in public articles")
    @blp.file_response("image/*", description="An image of a help article")
    @missing()
    def get(self, name: str):
        """An article image by its generated name (served with nosniff)."""
        return services.image_file(name)


# ---- management ---------------------------------------------------------------------------------------------


@blp.route("/BaseHelpCategory/list")
class CategoryList(MethodView):
    @blp.requires(f"{KEY}.query")
    @blp.arguments(HelpCategoryQuerySchema)
    @blp.response(200, HelpCategorySchema(many=True))
    def post(self, args):
        """Every category of this site (published or not) with its number of articles."""
        return services.categories(args)


@blp.route("/BaseHelpCategory/insert")
class CategoryInsert(MethodView):
    @blp.requires(f"{KEY}.add")
    @blp.arguments(HelpCategoryInsertSchema)
    @blp.response(200, HelpCategorySchema)
    def post(self, args):
        """Add a category in one language."""
        return services.insert_category(args)


@blp.route("/BaseHelpCategory/update")
class CategoryUpdate(MethodView):
    @blp.requires(f"{KEY}.edit")
    @blp.arguments(HelpCategoryUpdateSchema)
    @blp.response(200, HelpCategorySchema)
    @missing()
    def put(self, args):
        """Rename, reorder, publish or withdraw a category (the fields sent)."""
        return services.update_category(args)


@blp.route("/BaseHelpCategory/delete")
class CategoryDelete(MethodView):
    @blp.requires(f"{KEY}.delete")
    @blp.arguments(HelpCategoryIdSchema)
    @blp.response(200)
    @missing()
    @blp.alt_response(409, schema=ErrorEnvelopeSchema, description="The category still has articles")
    def post(self, args):
        """Delete an empty category."""
        services.delete_category(args["categoryId"])


@blp.route("/BaseHelpArticle/queryPage")
class ArticlePage(MethodView):
    @blp.requires(f"{KEY}.query")
    @blp.arguments(HelpArticlePageQuerySchema)
    @blp.response(200, HelpArticleSchema, page=True)
    def post(self, args):
        """Articles of this site (published or not), filtered by language, category and keyword."""
        return services.article_page(args)


@blp.route("/BaseHelpArticle/insert")
class ArticleInsert(MethodView):
    @blp.requires(f"{KEY}.add")
    @blp.arguments(HelpArticleInsertSchema)
    @blp.response(200, HelpArticleSchema)
    @missing()
    def post(self, args):
        """Write an article in a category; the HTML body is sanitised (nh3)."""
        return services.insert_article(args)


@blp.route("/BaseHelpArticle/update")
class ArticleUpdate(MethodView):
    @blp.requires(f"{KEY}.edit")
    @blp.arguments(HelpArticleUpdateSchema)
    @blp.response(200, HelpArticleSchema)
    @missing()
    def put(self, args):
        """Change the fields sent and not empty (move, retitle, rewrite, reorder, publish, withdraw)."""
        return services.update_article(args)


@blp.route("/BaseHelpArticle/delete")
class ArticleDelete(MethodView):
    @blp.requires(f"{KEY}.delete")
    @blp.arguments(HelpArticleIdSchema)
    @blp.response(200)
    @missing()
    def post(self, args):
        """Delete an article."""
        services.delete_article(args["articleId"])


@blp.route("/BaseHelpArticle/uploadImage")
class ArticleImageUpload(MethodView):
    @blp.requires(f"{KEY}.edit")
    @blp.arguments(HelpImageUploadSchema, location="files")
    @blp.response(200, HelpImageSchema)
    @blp.alt_response(413, schema=ErrorEnvelopeSchema, description="The file is too large (2 MB)")
    @blp.alt_response(415, schema=ErrorEnvelopeSchema, description="Not a JPG or PNG image (checked by content)")
    def post(self, args):
        """Upload an image for an article body; put its url in an <img> tag."""
        return services.store_image(args["file"])
