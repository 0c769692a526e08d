"""Demo help articles (`flask seed-demo`): the four tasks new users ask about, in both languages, on
every site. Safe to run again: a site that already has categories keeps its own."""

from __future__ import annotations

import json
from pathlib import Path

import nh3
from sqlalchemy import func, select

from api.extensions.db import db
from api.help.models import HelpArticle, HelpCategory
from api.platform.models import Platform

# The articles themselves are content, kept as data beside this module.
ARTICLES = json.loads((Path(__file__).parent / "demo_articles.json").read_text(encoding="utf-8"))


def seed_help(platforms: dict[str, Platform]) -> None:
    for platform in platforms.values():
        has_any = db.session.scalar(
            select(func.count()).select_from(HelpCategory).where(HelpCategory.platform_id == platform.id)
        )
        if has_any:
            continue
        for language, categories in ARTICLES.items():
            for category_order, entry in enumerate(categories):
                category = HelpCategory(
                    platform_id=platform.id,
                    language=language,
                    name=entry["category"],
                    sort_order=category_order,
                    published=True,
                )
                db.session.add(category)
                for article_order, article in enumerate(entry["articles"]):
                    db.session.add(
                        HelpArticle(
                            platform_id=platform.id,
                            category=category,
                            title=article["title"],
                            content=nh3.clean(article["content"], link_rel="noopener noreferrer"),
                            sort_order=article_order,
                            published=True,
                        )
                    )
    db.session.commit()
