"""Help centre rules: a site's operators write categories and articles per language; a visitor of the
site reads the published articles of published categories in the language of the request."""

from __future__ import annotations

import html

import nh3
from flask_babel import gettext
from sqlalchemy import func, or_, select
from sqlalchemy.orm import contains_eager

from api.extensions import uploads
from api.extensions.db import db, paginate
from api.extensions.i18n import locale_tag
from api.extensions.smorest import ApiError
from api.help.models import LANGUAGES, HelpArticle, HelpCategory
from api.identity.auth import current_account
from api.tenancy import current_platform, site_scoped

SUMMARY_CHARS = 120
CATEGORY_FIELDS = {"name": "name", "sortOrder": "sort_order", "published": "published"}
ARTICLE_FIELDS = {"title": "title", "content": "content", "sortOrder": "sort_order", "published": "published"}


def not_found() -> ApiError:
    return ApiError(gettext("The requested resource does not exist."), code=404, http_status=404)


def visitor_language() -> str:
    """zh-CN or en-US: the language the request asked for (Accept-Language), else the default."""
    tag = locale_tag()
    return tag if tag in LANGUAGES else next(lang for lang in LANGUAGES if lang.startswith(tag[:2]))


# ---- management ---------------------------------------------------------------------------------------------


def categories(args: dict) -> list[HelpCategory]:
    counts = select(HelpArticle.category_id, func.count().label("n")).group_by(HelpArticle.category_id).subquery()
    stmt = site_scoped(select(HelpCategory, func.coalesce(counts.c.n, 0)), HelpCategory).outerjoin(
        counts, counts.c.category_id == HelpCategory.id
    )
    if args.get("language"):
        stmt = stmt.where(HelpCategory.language == args["language"])
    out = []
    for category, count in db.session.execute(
        stmt.order_by(HelpCategory.language, HelpCategory.sort_order, HelpCategory.id)
    ):
        category.article_count = count
        out.append(category)
    return out


def find_category(category_id: int) -> HelpCategory:
    category = db.session.scalar(site_scoped(select(HelpCategory), HelpCategory).where(HelpCategory.id == category_id))
    if category is None:
        raise not_found()
    return category


def insert_category(args: dict) -> HelpCategory:
    category = HelpCategory(
        platform_id=current_platform().id,
        language=args["language"],
        **{column: args[field] for field, column in CATEGORY_FIELDS.items()},
    )
    db.session.add(category)
    db.session.commit()
    return category


def update_category(args: dict) -> HelpCategory:
    category = find_category(args["categoryId"])
    for field, column in CATEGORY_FIELDS.items():
        if args.get(field) is not None:
            setattr(category, column, args[field])
    db.session.commit()
    return category


def delete_category(category_id: int) -> None:
    """A category with articles is refused: its articles would vanish with it."""
    category = find_category(category_id)
    if db.session.scalar(select(func.count()).where(HelpArticle.category_id == category.id)):
        raise ApiError(gettext("Move or delete the articles of this category first."), code=4090, http_status=409)
    db.session.delete(category)
    db.session.commit()


def article_page(args: dict) -> dict:
    stmt = (
        site_scoped(select(HelpArticle), HelpArticle)
        .join(HelpArticle.category)
        .options(contains_eager(HelpArticle.category))
    )
    if args.get("language"):
        stmt = stmt.where(HelpCategory.language == args["language"])
    if args.get("categoryId"):
        stmt = stmt.where(HelpArticle.category_id == args["categoryId"])
    if args.get("keyword"):
        stmt = stmt.where(_matches(args["keyword"]))
    return paginate(stmt, args, HelpCategory.sort_order, HelpArticle.sort_order, HelpArticle.id)


def find_article(article_id: int) -> HelpArticle:
    article = db.session.scalar(site_scoped(select(HelpArticle), HelpArticle).where(HelpArticle.id == article_id))
    if article is None:
        raise not_found()
    return article


def insert_article(args: dict) -> HelpArticle:
    category = find_category(args["categoryId"])
    article = HelpArticle(
        platform_id=current_platform().id,
        category=category,
        created_by=current_account().id,
        **{column: args[field] for field, column in ARTICLE_FIELDS.items()},
    )
    db.session.add(article)
    db.session.commit()
    return article


def update_article(args: dict) -> HelpArticle:
    article = find_article(args["articleId"])
    if args.get("categoryId"):
        article.category = find_category(args["categoryId"])
    for field, column in ARTICLE_FIELDS.items():
        if args.get(field) not in (None, ""):
            setattr(article, column, args[field])
    db.session.commit()
    return article


def delete_article(article_id: int) -> None:
    db.session.delete(find_article(article_id))
    db.session.commit()


def store_image(file) -> dict:
    stored = uploads.store_upload(file, "image", current_platform().slug)
    return {"name": stored.name, "url": f"/api/base/BaseHelp/image/{stored.name}"}


def image_file(name: str):
    found = uploads.find_upload(current_platform().slug, name)
    if found is None:
        raise not_found()
    return uploads.send_upload(*found)


# ---- the public help centre ----------------------------------------------------------------------------------


def _visible():
    """Published articles of published categories of this site, in the visitor's language."""
    return (
        site_scoped(select(HelpArticle), HelpArticle)
        .join(HelpArticle.category)
        .options(contains_eager(HelpArticle.category))
        .where(
            HelpArticle.published.is_(True),
            HelpCategory.published.is_(True),
            HelpCategory.language == visitor_language(),
        )
    )


def _matches(keyword: str):
    return or_(
        HelpArticle.title.contains(keyword, autoescape=True), HelpArticle.content.contains(keyword, autoescape=True)
    )


def center() -> list[dict]:
    """The categories with their published articles, in order; empty categories are left out."""
    articles = db.session.scalars(
        _visible().order_by(HelpCategory.sort_order, HelpCategory.id, HelpArticle.sort_order, HelpArticle.id)
    )
    grouped: dict[int, dict] = {}
    for article in articles:
        entry = grouped.setdefault(
            article.category_id, {"id": article.category_id, "name": article.category.name, "articles": []}
        )
        entry["articles"].append(article)
    return list(grouped.values())


def search(args: dict) -> dict:
    stmt = _visible()
    if args.get("categoryId"):
        stmt = stmt.where(HelpArticle.category_id == args["categoryId"])
    if args.get("keyword"):
        stmt = stmt.where(_matches(args["keyword"]))
    page = paginate(stmt, args, HelpCategory.sort_order, HelpArticle.sort_order, HelpArticle.id)
    for article in page["list"]:
        article.summary = summary(article.content)
    return page


def read(article_id: int) -> HelpArticle:
    article = db.session.scalar(_visible().where(HelpArticle.id == article_id))
    if article is None:
        raise not_found()
    return article


def summary(content: str) -> str:
    text = " ".join(html.unescape(nh3.clean(content, tags=set())).split())
    return text if len(text) <= SUMMARY_CHARS else text[: SUMMARY_CHARS - 1] + "…"
