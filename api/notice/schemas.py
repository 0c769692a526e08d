from __future__ import annotations

import marshmallow as ma
import nh3
from marshmallow import validate

from api.extensions.crud import record_id
from api.extensions.integers import Integer
from api.extensions.smorest import LocalDateTime, PageQuerySchema, Schema

FLAG = validate.OneOf([0, 1])
KIND = validate.Range(min=1, max=9)


class RichText(ma.fields.String):
    """HTML from the rich-text editor, cleaned with nh3 on the way in (no scripts, no handlers)."""

    def _deserialize(self, value, attr, data, **kwargs):
        return nh3.clean(super()._deserialize(value, attr, data, **kwargs), link_rel="noopener noreferrer")


class NoticeSchema(Schema):
    noticeId = Integer(attribute="id")
    noticeTitle = ma.fields.String(attribute="title")
    noticeContent = ma.fields.String(attribute="content")
    noticeType = Integer(attribute="notice_type")
    noticePlatform = Integer(attribute="notice_platform")
    noticeCamp = Integer(attribute="notice_camp")
    enabled = ma.fields.Boolean()
    gmtCreate = LocalDateTime(attribute="created_at")
    gmtModified = LocalDateTime(attribute="updated_at")


class NoticeInsertSchema(Schema):
    noticeTitle = ma.fields.String(required=True, validate=validate.Length(min=1, max=100))
    noticeContent = RichText(required=True, validate=validate.Length(min=1, max=20000))
    noticeType = Integer(load_default=1, validate=KIND)
    noticePlatform = Integer(load_default=1, validate=KIND)
    noticeCamp = Integer(load_default=0, validate=FLAG)
    enabled = ma.fields.Boolean(load_default=True)


class NoticeUpdateSchema(Schema):
    """Only the fields sent (and not empty) change: updateWithNotEmptyFiled."""

    noticeId = record_id()
    noticeTitle = ma.fields.String(validate=validate.Length(min=1, max=100))
    noticeContent = RichText(validate=validate.Length(min=1, max=20000))
    noticeType = Integer(validate=KIND)
    noticePlatform = Integer(validate=KIND)
    noticeCamp = Integer(validate=FLAG)
    enabled = ma.fields.Boolean()


class NoticeQuerySchema(Schema):
    noticePlatform = Integer(load_default=1, validate=KIND)
    noticeType = Integer(load_default=1, validate=KIND)
    noticeCamp = Integer(load_default=0, validate=FLAG)


class NoticePageQuerySchema(PageQuerySchema):
    noticeType = Integer(load_default=None, validate=KIND)
    noticeTitle = ma.fields.String(load_default=None, validate=validate.Length(max=100))
