from __future__ import annotations

import marshmallow as ma
from marshmallow import validate

from api.extensions.crud import record_id
from api.extensions.integers import Integer
from api.extensions.smorest import LocalDateTime, PageQuerySchema, Schema
from api.help.models import LANGUAGES
from api.notice.schemas import RichText

LANGUAGE = validate.OneOf(LANGUAGES)
ORDER = validate.Range(min=0, max=9999)
CATEGORY_NAME = validate.Length(min=1, max=50)
ARTICLE_TITLE = validate.Length(min=1, max=100)
ARTICLE_BODY = validate.Length(min=1, max=50000)


# ---- management (operators and site admins) ---------------------------------------------------------------


class HelpCategorySchema(Schema):
    categoryId = Integer(attribute="id")
    name = ma.fields.String()
    language = ma.fields.String()
    sortOrder = Integer(attribute="sort_order")
    published = ma.fields.Boolean()
    articleCount = Integer(attribute="article_count", dump_default=0)
    gmtModified = LocalDateTime(attribute="updated_at")


class HelpCategoryInsertSchema(Schema):
    name = ma.fields.String(required=True, validate=CATEGORY_NAME)
    language = ma.fields.String(required=True, validate=LANGUAGE)
    sortOrder = Integer(load_default=0, validate=ORDER)
    published = ma.fields.Boolean(load_default=True)


class HelpCategoryUpdateSchema(Schema):
    """Only the fields sent change (the language of a category is fixed: its articles are written in it)."""

    categoryId = record_id()
    name = ma.fields.String(validate=CATEGORY_NAME)
    sortOrder = Integer(validate=ORDER)
    published = ma.fields.Boolean()


class HelpCategoryQuerySchema(Schema):
    language = ma.fields.String(load_default=None, validate=LANGUAGE)


class HelpCategoryIdSchema(Schema):
    categoryId = Integer(required=True)


class HelpArticleSchema(Schema):
    articleId = Integer(attribute="id")
    categoryId = Integer(attribute="category_id")
    categoryName = ma.fields.String(attribute="category.name")
    language = ma.fields.String(attribute="category.language")
    title = ma.fields.String()
    content = ma.fields.String()
    sortOrder = Integer(attribute="sort_order")
    published = ma.fields.Boolean()
    gmtCreate = LocalDateTime(attribute="created_at")
    gmtModified = LocalDateTime(attribute="updated_at")


class HelpArticleInsertSchema(Schema):
    categoryId = Integer(required=True, validate=validate.Range(min=1, max=2**31 - 1))
    title = ma.fields.String(required=True, validate=ARTICLE_TITLE)
    content = RichText(required=True, validate=ARTICLE_BODY)
    sortOrder = Integer(load_default=0, validate=ORDER)
    published = ma.fields.Boolean(load_default=False)


class HelpArticleUpdateSchema(Schema):
    articleId = record_id()
    categoryId = Integer(validate=validate.Range(min=1, max=2**31 - 1))
    title = ma.fields.String(validate=ARTICLE_TITLE)
    content = RichText(validate=ARTICLE_BODY)
    sortOrder = Integer(validate=ORDER)
    published = ma.fields.Boolean()


class HelpArticlePageQuerySchema(PageQuerySchema):
    language = ma.fields.String(load_default=None, validate=LANGUAGE)
    categoryId = Integer(load_default=None, validate=validate.Range(min=1, max=2**31 - 1))
    keyword = ma.fields.String(load_default=None, validate=validate.Length(max=50))


class HelpArticleIdSchema(Schema):
    articleId = Integer(required=True)


class HelpImageUploadSchema(Schema):
    file = ma.fields.Raw(
        required=True, metadata={"type": "string", "format": "binary", "description": "JPG or PNG, at most 2 MB"}
    )


class HelpImageSchema(Schema):
    name = ma.fields.String()
    url = ma.fields.String()


# ---- the public help centre ----------------------------------------------------------------------------------


class HelpArticleTitleSchema(Schema):
    articleId = Integer(attribute="id")
    title = ma.fields.String()


class HelpCenterCategorySchema(Schema):
    categoryId = Integer(attribute="id")
    name = ma.fields.String()
    articles = ma.fields.List(ma.fields.Nested(HelpArticleTitleSchema))


class HelpSearchSchema(PageQuerySchema):
    keyword = ma.fields.String(load_default=None, validate=validate.Length(max=50))
    categoryId = Integer(load_default=None, validate=validate.Range(min=1, max=2**31 - 1))


class HelpArticleSummarySchema(Schema):
    articleId = Integer(attribute="id")
    title = ma.fields.String()
    categoryId = Integer(attribute="category_id")
    categoryName = ma.fields.String(attribute="category.name")
    summary = ma.fields.String()


class HelpArticleReadSchema(Schema):
    articleId = Integer(attribute="id")
    title = ma.fields.String()
    content = ma.fields.String()
    categoryId = Integer(attribute="category_id")
    categoryName = ma.fields.String(attribute="category.name")
    gmtModified = LocalDateTime(attribute="updated_at")
