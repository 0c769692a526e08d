"""Help categories and articles: published by a site (platform) for one language."""

from __future__ import annotations

from sqlalchemy import ForeignKey, Index, String, Text
from sqlalchemy.orm import Mapped, mapped_column, relationship

from api.extensions.db import Model, TimestampMixin

LANGUAGES = ("zh-CN", "en-US")


class HelpCategory(TimestampMixin, Model):
    __tablename__ = "help_category"
    __table_args__ = (Index("ix_help_category_site_language", "platform_id", "language", "sort_order"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    platform_id: Mapped[int] = mapped_column(ForeignKey("platform.id", ondelete="CASCADE"))
    language: Mapped[str] = mapped_column(String(5))
    name: Mapped[str] = mapped_column(String(50))
    sort_order: Mapped[int] = mapped_column(default=0)
    published: Mapped[bool] = mapped_column(default=True)

    articles: Mapped[list[HelpArticle]] = relationship(
        back_populates="category", cascade="all, delete-orphan", passive_deletes=True
    )


class HelpArticle(TimestampMixin, Model):
    """The body is HTML cleaned with nh3 when it is written (images are <img> tags in the body)."""

    __tablename__ = "help_article"
    __table_args__ = (Index("ix_help_article_category_order", "category_id", "sort_order"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    platform_id: Mapped[int] = mapped_column(ForeignKey("platform.id", ondelete="CASCADE"), index=True)
    category_id: Mapped[int] = mapped_column(ForeignKey("help_category.id", ondelete="CASCADE"))
    title: Mapped[str] = mapped_column(String(100))
    content: Mapped[str] = mapped_column(Text)
    sort_order: Mapped[int] = mapped_column(default=0)
    published: Mapped[bool] = mapped_column(default=False)
    created_by: Mapped[int | None] = mapped_column(ForeignKey("account.id", ondelete="SET NULL"))

    category: Mapped[HelpCategory] = relationship(back_populates="articles")
