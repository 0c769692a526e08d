from __future__ import annotations

from flask.views import MethodView

from api.alarm import services, timeline
from api.alarm.ack_schemas import AckLinkQuerySchema, AckLinkSchema, AckSchema, AckStateSchema, TimelineEntrySchema
from api.alarm.schemas import (
    AlarmPageQuerySchema,
    AlarmQuerySchema,
    AlarmRuleSchema,
    AlarmSchema,
    DeviceAlarmStatusSchema,
    DeviceQuerySchema,
    MessagePageQuerySchema,
    MessageSchema,
    MessageTemplateSchema,
    OutboxSchema,
    ProcessResultSchema,
    ProcessSchema,
    PushSettingSchema,
    ReadSchema,
    RuleQuerySchema,
    SensorLimitPeriodSchema,
    SensorLimitSaveSchema,
    SensorLimitSchema,
    UnreadSchema,
)
from api.extensions.ratelimit import limiter
from api.extensions.smorest import GXP_REASON, GXP_SIGNATURE, OPERATE, Blueprint, ErrorEnvelopeSchema

blp = Blueprint("alarm", __name__, url_prefix="/api/alarm", description="Alarms, messages and push settings")
MESSAGES = "message.list"
DEVICES = "device.list"
PRODUCT = "operation.product"


def missing():
    return blp.alt_response(404, schema=ErrorEnvelopeSchema, description="Not found for this account")


@blp.route("/AlarmMessage/page")
class MessagePage(MethodView):
    @blp.requires("message.list.query")
    @blp.arguments(MessagePageQuerySchema)
    @blp.response(200, MessageSchema, page=True)
    def post(self, args):
        """Alarm and system messages, newest first; filters type, device, state, time range."""
        return services.message_page(args)


@blp.route("/AlarmMessage/unreadCount")
class UnreadCount(MethodView):
    @blp.requires("message.list.query")
    @blp.response(200, UnreadSchema)
    def get(self):
        """Unread messages (the header badge) and alarms still pending processing."""
        return services.unread_count()


@blp.route("/AlarmMessage/read")
class MessageRead(MethodView):
    @blp.requires("message.list.query")
    @blp.arguments(ReadSchema)
    @blp.response(200, ProcessResultSchema)
    def put(self, args):
        """Mark messages read (all of them when no ids are given)."""
        return services.mark_read(args.get("ids"))


@blp.route("/AlarmMessage/process")
class MessageProcess(MethodView):
    @blp.requires("message.list.edit", gxp=GXP_SIGNATURE)
    @blp.arguments(ProcessSchema)
    @blp.response(200, ProcessResultSchema)
    @missing()
    def put(self, args):
        """Batch processing: agreed, rejected or on hold, with a result (max 50); stops escalation."""
        return services.process(args["ids"], args["processState"], args.get("result"))


@blp.route("/Alarm/deviceStatus")
class DeviceAlarmStatus(MethodView):
    @blp.requires("device.list.query", device="deviceId", block="alarm")
    @blp.arguments(DeviceQuerySchema, location="query")
    @blp.response(200, DeviceAlarmStatusSchema)
    @missing()
    def get(self, args):
        """The device's open alarms, pending count and SMS / voice balance."""
        return services.device_status(args["deviceId"])


@blp.route("/Alarm/page")
class AlarmPage(MethodView):
    @blp.requires("device.list.query", device="deviceId", block="alarm")
    @blp.arguments(AlarmPageQuerySchema)
    @blp.response(200, AlarmSchema, page=True)
    @missing()
    def post(self, args):
        """The device's alarm history, newest first."""
        return services.alarm_page(args)


@blp.route("/Alarm/notifications")
class AlarmNotifications(MethodView):
    @blp.requires("device.list.query", alarm="alarmId", block="alarm")
    @blp.arguments(AlarmQuerySchema, location="query")
    @blp.response(200, OutboxSchema(many=True))
    @missing()
    def get(self, args):
        """The outbox record of one alarm: each send, its channel, recipient and outcome."""
        return services.notifications(args["alarmId"])


@blp.route("/Alarm/acknowledge")
class AlarmAcknowledge(MethodView):
    @blp.requires("message.list.edit", alarm="alarmId", access=OPERATE, block="alarm")
    @blp.arguments(AckSchema)
    @blp.response(200, AckStateSchema)
    @missing()
    def put(self, args):
        """Acknowledge an alarm in the console: stops its repeats and escalation (once: a second
        acknowledgement records nothing)."""
        return timeline.console_ack(services.owned_alarm(args["alarmId"]))


@blp.route("/Alarm/timeline/<int:alarm_id>")
class AlarmTimeline(MethodView):
    @blp.requires("device.list.query", alarm="alarm_id", block="alarm")
    @blp.response(200, TimelineEntrySchema(many=True))
    @missing()
    def get(self, alarm_id: int):
        """Every step of one alarm, oldest first: opened, sends, deliveries, escalations, acknowledgement,
        processing, closing."""
        return timeline.timeline(services.owned_alarm(alarm_id))


@blp.route("/AlarmAck/view")
class AlarmAckView(MethodView):
    decorators = [limiter.limit("30 per minute", methods=["GET"])]

    @blp.public("the acknowledgement link of an alarm's email: the signed, expiring token is the credential")
    @blp.arguments(AckLinkQuerySchema, location="query")
    @blp.response(200, AckLinkSchema)
    @blp.alt_response(410, schema=ErrorEnvelopeSchema, description="The link has expired")
    @blp.alt_response(403, schema=ErrorEnvelopeSchema, description="The link is not valid")
    def get(self, args):
        """The alarm an email's acknowledgement link names (public)."""
        return timeline.link_view(args["token"])


@blp.route("/AlarmAck/confirm")
class AlarmAckConfirm(MethodView):
    decorators = [limiter.limit("30 per minute", methods=["POST"])]

    @blp.public("the acknowledgement link of an alarm's email: the signed, expiring token is the credential")
    @blp.arguments(AckLinkQuerySchema)
    @blp.response(200, AckLinkSchema)
    @blp.alt_response(410, schema=ErrorEnvelopeSchema, description="The link has expired")
    @blp.alt_response(403, schema=ErrorEnvelopeSchema, description="The link is not valid")
    def post(self, args):
        """Acknowledge the alarm by its email's link (public), by the address it was sent to."""
        return timeline.link_ack(args["token"])


@blp.route("/PushSetting/get")
class PushSettingGet(MethodView):
    @blp.requires("alarm.push.query", device="deviceId", block="push")
    @blp.arguments(DeviceQuerySchema, location="query")
    @blp.response(200, PushSettingSchema)
    @missing()
    def get(self, args):
        """The device's push (notification) settings."""
        return services.push_setting(args["deviceId"])


@blp.route("/PushSetting/save")
class PushSettingSave(MethodView):
    @blp.requires("alarm.push.edit", device="deviceId", access=OPERATE, block="push", gxp=GXP_REASON)
    @blp.arguments(PushSettingSchema)
    @blp.response(200, PushSettingSchema)
    @missing()
    def post(self, args):
        """Save the push settings: levels (minutes rising strictly), recipients, channels, repeats,
        delay, scheduled hours, urgent kinds, webhook."""
        return services.save_push_setting(args)


@blp.route("/SensorLimit/list")
class LimitList(MethodView):
    @blp.requires("alarm.limit.query", device="deviceId", block="alarm")
    @blp.arguments(DeviceQuerySchema, location="query")
    @blp.response(200, SensorLimitSchema(many=True))
    @missing()
    def get(self, args):
        """The device's per-sensor upper and lower limits and delays."""
        return services.limits(args["deviceId"])


@blp.route("/SensorLimit/history")
class LimitHistory(MethodView):
    @blp.requires("alarm.limit.query", device="deviceId", block="alarm")
    @blp.arguments(DeviceQuerySchema, location="query")
    @blp.response(200, SensorLimitPeriodSchema(many=True))
    @missing()
    def get(self, args):
        """Every period of the device's limits, newest first: valid from / to, who changed them and why."""
        return services.limit_history(args["deviceId"])


@blp.route("/SensorLimit/save")
class LimitSave(MethodView):
    @blp.requires("alarm.limit.edit", device="deviceId", access=OPERATE, block="alarm", gxp=GXP_REASON)
    @blp.arguments(SensorLimitSaveSchema)
    @blp.response(200, SensorLimitSchema(many=True))
    @missing()
    def post(self, args):
        """Replace the device's limits (upper > lower, within each parameter's range)."""
        return services.save_limits(args["deviceId"], args["limits"])


@blp.route("/AlarmRule/list")
class RuleList(MethodView):
    @blp.requires("operation.product.alarm.query")
    @blp.arguments(RuleQuerySchema, location="query")
    @blp.response(200, AlarmRuleSchema(many=True))
    def get(self, args):
        """Operator: alarm and warning rules, defaults per device type."""
        return services.rules(args)


@blp.route("/AlarmRule/save")
class RuleSave(MethodView):
    @blp.requires("operation.product.alarm.edit")
    @blp.arguments(AlarmRuleSchema)
    @blp.response(200, AlarmRuleSchema)
    def post(self, args):
        """Operator: create or update the rule of a device type and alarm kind."""
        return services.save_rule(args)


@blp.route("/AlarmRule/delete/<int:rule_id>")
class RuleDelete(MethodView):
    @blp.requires("operation.product.alarm.delete")
    @blp.response(200)
    @missing()
    def delete(self, rule_id: int):
        """Operator: remove a rule (the type falls back to the built-in defaults)."""
        services.delete_rule(rule_id)


@blp.route("/MessageTemplate/list")
class TemplateList(MethodView):
    @blp.requires("operation.product.template.query")
    @blp.response(200, MessageTemplateSchema(many=True))
    def get(self):
        """Operator: message templates (msgName, type, content per language)."""
        return services.templates()


@blp.route("/MessageTemplate/save")
class TemplateSave(MethodView):
    @blp.requires("operation.product.template.edit")
    @blp.arguments(MessageTemplateSchema)
    @blp.response(200, MessageTemplateSchema)
    def post(self, args):
        """Operator: create or update a message template."""
        return services.save_template(args)
