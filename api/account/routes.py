from __future__ import annotations

from flask import current_app, make_response
from flask.views import MethodView

from api.account import services, social
from api.account.schemas import (
    AccountInfoQuerySchema,
    AccountInfoSchema,
    BaseAccountSchema,
    BindEmailSchema,
    BindingSchema,
    BindPhoneSchema,
    ChangePasswordSchema,
    CodeSentSchema,
    EmailCodeQuerySchema,
    EmailLoginSchema,
    ForgotSchema,
    OAuthAuthorizeSchema,
    OAuthCallbackSchema,
    OldPlatformLoginSchema,
    PasswordLoginSchema,
    PhoneCodeQuerySchema,
    PhotoSchema,
    PhotoUploadSchema,
    RegisterSchema,
    SocialLoginResultSchema,
    TokenSchema,
    UpdateInfoSchema,
    WechatFollowSchema,
)
from api.extensions.ratelimit import limiter
from api.extensions.smorest import Blueprint, ErrorEnvelopeSchema
from api.identity.auth import current_account
from api.verification import services as verification
from api.verification.models import CodeChannel

blp = Blueprint("account", __name__, url_prefix="/api/base/BaseAccount", description="Sign-in, accounts and sessions")

# Per client address; per account and per destination limits live in the services.
LOGIN_LIMIT = "10 per minute;100 per hour"
CODE_LIMIT = "5 per minute;30 per hour"


def refused(status: int, description: str):
    return blp.alt_response(status, schema=ErrorEnvelopeSchema, description=description)


@blp.route("/newVerify")
class Captcha(MethodView):
    @blp.public("the image captcha of the sign-in forms")
    @blp.file_response(
        "image/png",
        description="Captcha image; its key is in the X-Captcha-Key header, and X-Captcha-Required "
        "(1 or 0) says whether sign-in asks for it (CAPTCHA_REQUIRED)",
    )
    def get(self):
        """A new image captcha (single use, 5 minutes). Send its key back as verifyKey. The sign-in
        form asks for it only when X-Captcha-Required is 1."""
        key, image = verification.new_captcha()
        response = make_response(image)
        response.headers.update(
            {
                "Content-Type": "image/png",
                "X-Captcha-Key": key,
                "X-Captcha-Required": "1" if current_app.config["CAPTCHA_REQUIRED"] else "0",
                "Cache-Control": "no-store",
                "Access-Control-Expose-Headers": "X-Captcha-Key, X-Captcha-Required",
            }
        )
        return response


@blp.route("/login")
class PasswordLogin(MethodView):
    decorators = [limiter.limit(LOGIN_LIMIT, methods=["POST"])]

    @blp.public("signing in")
    @blp.arguments(PasswordLoginSchema)
    @blp.response(200, TokenSchema)
    @refused(429, "Too many attempts (per address) or password sign-in locked (per account)")
    def post(self, args):
        """Sign in with user name, phone or email, password and the image captcha."""
        token = services.login_with_password(args["userName"], args["password"], args["verifyKey"], args["verifyCode"])
        return {"token": token}


@blp.route("/login/email")
class EmailLogin(MethodView):
    decorators = [limiter.limit(LOGIN_LIMIT, methods=["POST"])]

    @blp.public("signing in")
    @blp.arguments(EmailLoginSchema)
    @blp.response(200, TokenSchema)
    def post(self, args):
        """Sign in with an email address and the code sent to it (GET code/email, type=login)."""
        return {"token": services.login_with_email_code(args["email"], args["code"])}


@blp.route("/code/phone")
class PhoneCode(MethodView):
    decorators = [limiter.limit(CODE_LIMIT, methods=["GET"])]

    @blp.public("one-time codes for sign-in, registration and recovery")
    @blp.arguments(PhoneCodeQuerySchema, location="query")
    @blp.response(200, CodeSentSchema)
    @refused(429, "Asked again too soon or too often from this client")
    def get(self, args):
        """Send a verification code by SMS (type: login, register, forgot, bind)."""
        services.send_code(CodeChannel.PHONE, args["phone"], args["type"], (args["verifyKey"], args["verifyCode"]))
        return {"resendAfter": int(verification.CODE_RESEND_AFTER.total_seconds())}


@blp.route("/code/email")
class EmailCode(MethodView):
    decorators = [limiter.limit(CODE_LIMIT, methods=["GET"])]

    @blp.public("one-time codes for sign-in, registration and recovery")
    @blp.arguments(EmailCodeQuerySchema, location="query")
    @blp.response(200, CodeSentSchema)
    @refused(429, "Asked again too soon or too often from this client")
    def get(self, args):
        """Send a verification code by email (type: login, register, forgot, bind)."""
        services.send_code(CodeChannel.EMAIL, args["email"], args["type"], (args["verifyKey"], args["verifyCode"]))
        return {"resendAfter": int(verification.CODE_RESEND_AFTER.total_seconds())}


@blp.route("/register")
class Register(MethodView):
    decorators = [limiter.limit(LOGIN_LIMIT, methods=["POST"])]

    @blp.public("registration")
    @blp.arguments(RegisterSchema)
    @blp.response(200, TokenSchema)
    def post(self, args):
        """Register a business or personal account with a phone or email code; signs in."""
        return {"token": services.register(args)}


@blp.route("/forgot")
class Forgot(MethodView):
    decorators = [limiter.limit(LOGIN_LIMIT, methods=["POST"])]

    @blp.public("password recovery")
    @blp.arguments(ForgotSchema)
    @blp.response(200)
    def post(self, args):
        """Set a new password with a code sent to the account's phone or email."""
        services.reset_forgotten_password(args)


@blp.route("/updatePassword")
class ChangePassword(MethodView):
    @blp.requires()
    @blp.arguments(ChangePasswordSchema)
    @blp.response(200)
    def post(self, args):
        """Change the password; every session of the account ends, this one included."""
        services.change_password(current_account(), args["oldPassword"], args["password"])


@blp.route("/updateInfo")
class UpdateInfo(MethodView):
    @blp.requires("consumer.info")
    @blp.arguments(UpdateInfoSchema)
    @blp.response(200, BaseAccountSchema)
    def put(self, args):
        """Change the profile: real name, company, time zone, temperature unit (C / F)."""
        return services.update_profile(current_account(), args)


@blp.route("/bindPhone")
class BindPhone(MethodView):
    @blp.requires()
    @blp.arguments(BindPhoneSchema)
    @blp.response(200)
    def post(self, args):
        """Bind a phone number to the signed-in account (code from GET code/phone, type=bind)."""
        services.bind_contact(current_account(), CodeChannel.PHONE, args["phone"], args["code"])


@blp.route("/bindEmail")
class BindEmail(MethodView):
    @blp.requires()
    @blp.arguments(BindEmailSchema)
    @blp.response(200)
    def post(self, args):
        """Bind an email address to the signed-in account (code from GET code/email, type=bind)."""
        services.bind_contact(current_account(), CodeChannel.EMAIL, args["email"], args["code"])


@blp.route("/loginOut")
class Logout(MethodView):
    @blp.public("signing out (a missing or stale token is fine)")
    @blp.response(200)
    def get(self):
        """Revoke the presented token. Always succeeds, so a client can always sign out."""
        services.logout()


@blp.route("/cancelWithNoParam")
class Cancel(MethodView):
    @blp.requires()
    @blp.response(200)
    def post(self):
        """Cancel the signed-in account: it can no longer sign in and its sessions end."""
        services.cancel(current_account())


@blp.route("/accountInfo")
class AccountInfo(MethodView):
    @blp.requires()
    @blp.arguments(AccountInfoQuerySchema, location="query")
    @blp.response(200, AccountInfoSchema)
    def get(self, args):
        """The signed-in account, its permission keys, organisations and home page."""
        return services.account_info()


@blp.route("/uploadPhoto")
class UploadPhoto(MethodView):
    @blp.requires("consumer.info")
    @blp.arguments(PhotoUploadSchema, location="files")
    @blp.response(200, PhotoSchema)
    @refused(413, "The file is too large (2 MB)")
    @refused(415, "Not a JPG or PNG image (checked by content)")
    def post(self, args):
        """Upload the signed-in account's photo (JPG or PNG, 2 MB); answers its URL (also accountPhoto)."""
        return services.set_photo(current_account(), args["file"])


@blp.route("/photo/<name>")
class Photo(MethodView):
    @blp.public("profile photos are addressed by unguessable names")
    @blp.file_response("image/*", description="A profile photo")
    @refused(404, "No such photo")
    def get(self, name: str):
        """A profile photo by its generated name (served with nosniff)."""
        return services.photo_file(name)


@blp.route("/unlock/<int:account_id>")
class Unlock(MethodView):
    @blp.requires("operation.unlock")
    @blp.response(200)
    @refused(404, "No such account on this platform")
    def post(self, account_id: int):
        """Lift the password lock of an account (platform staff)."""
        services.unlock(account_id)


@blp.route("/login/<any(wechat, qq, facebook):provider>/web/authorize")
class SocialAuthorize(MethodView):
    @blp.public("social sign-in")
    @blp.response(200, OAuthAuthorizeSchema)
    def get(self, provider: str):
        """Where to send the browser to sign in with WeChat, QQ or Facebook on this site."""
        return {"url": social.authorization_url(provider)}


@blp.route("/login/wechat/web")
class WechatLogin(MethodView):
    decorators = [limiter.limit(LOGIN_LIMIT, methods=["POST"])]

    @blp.public("social sign-in")
    @blp.arguments(OAuthCallbackSchema)
    @blp.response(200, SocialLoginResultSchema)
    def post(self, args):
        """Finish WeChat web sign-in with the code and state from /user/login-result."""
        return social.complete("wechat", args["code"], args["state"])


@blp.route("/login/qq/web")
class QQLogin(MethodView):
    decorators = [limiter.limit(LOGIN_LIMIT, methods=["POST"])]

    @blp.public("social sign-in")
    @blp.arguments(OAuthCallbackSchema)
    @blp.response(200, SocialLoginResultSchema)
    def post(self, args):
        """Finish QQ web sign-in with the code and state from /user/login-result."""
        return social.complete("qq", args["code"], args["state"])


@blp.route("/login/facebook/web")
class FacebookLogin(MethodView):
    decorators = [limiter.limit(LOGIN_LIMIT, methods=["GET"])]

    @blp.public("social sign-in")
    @blp.arguments(OAuthCallbackSchema, location="query")
    @blp.response(200, SocialLoginResultSchema)
    def get(self, args):
        """Finish Facebook web sign-in with the code and state from /user/login-result."""
        return social.complete("facebook", args["code"], args["state"])


@blp.route("/binding")
class Binding(MethodView):
    decorators = [limiter.limit(LOGIN_LIMIT, methods=["POST"])]

    @blp.public("social sign-in: binding a new social account")
    @blp.arguments(BindingSchema)
    @blp.response(200, TokenSchema)
    def post(self, args):
        """Bind a first-time social identity to an existing or a new account; signs in."""
        return {"token": services.bind_social(args)}


@blp.route("/login/toOldPaltform")
class OldPlatformLogin(MethodView):
    decorators = [limiter.limit(LOGIN_LIMIT, methods=["POST"])]

    @blp.public("signing in to the old platform")
    @blp.arguments(OldPlatformLoginSchema)
    @blp.response(200, TokenSchema)
    def post(self, args):
        """Sign in with old-platform credentials (checked there); the account moves here."""
        return {"token": services.login_to_old_platform(args)}


@blp.route("/focusOnWechat")
class WechatFollow(MethodView):
    @blp.requires()
    @blp.response(200, WechatFollowSchema)
    def get(self):
        """Whether the account follows the site's WeChat official account, and its QR code."""
        return services.wechat_follow_prompt(current_account())
