/**
 * Each hand-written shape of this folder against the schema the api documents for it (schema.d.ts):
 * `npm run typecheck` fails when the api adds, drops or renames a field, or types one so that the
 * web's type is no longer accepted. Shapes equal to their schema are aliases in their module instead.
 * The few under SameFields still differ in a field's type (a nested object the document leaves open,
 * or a value the web reads as nullable); their field names are checked.
 */
import type { Check, Mirrors, SameFields, Schemas } from './generated';
import type { AccountInfo, BaseAccount, OrgWithRole, PasswordLoginPayload, SocialResult } from './account';
import type {
  Alarm,
  AlarmMessage,
  DeviceAlarmStatus,
  MessageQuery,
  Notification,
  PushLevel,
  PushSetting,
  Recipient,
  SensorLimitPeriod,
  UnreadCount,
} from './alarm';
import type { Activity, InvoiceInfo, Merchant, MessagePack, OfflinePurchase, PriceRow, ServiceLevel } from './billing';
import type {
  ApplicationPayment,
  CertificateLink,
  DeviceCertificate,
  Explanation,
  History,
  Invoice,
  ItemInput,
  ItemResults,
  OrderQuery,
  PointInput,
  Price,
  QuickOrderInput,
  Result,
  Verification,
} from './calibration';
import type { CustomPageAdmin } from './customization';
import type { Connector, ConnectorInput, ConnectorTarget, Delivery } from './dataInterface';
import type {
  BatchResult,
  ChartAnswer,
  Device,
  DevicePageQuery,
  DeviceParam,
  DeviceSensor,
  EnergyMonth,
  ExpiredDevice,
  MaintenanceInput,
  QuickQueryAnswer,
  StatusCount,
  TrackPoint,
} from './device';
import type { TimeZoneOption } from './dictionary';
import type {
  Checker,
  DataFile,
  Endorsement,
  FdaConfig,
  FileStep,
  FrozenSensor,
  Integrity,
  Manifestation,
  PublicVerification,
  RecordVersion,
  SequenceStep,
  Signature,
  SigningSequence,
  VersionSeal,
} from './fda';
import type {
  HelpArticleTitle,
  HelpCenterCategory,
  HelpSearchArgs,
  ManagedHelpArticle,
  ManagedHelpCategory,
} from './help';
import type { ManagedNotice } from './noticeAdmin';
import type { StaffRole } from './operation';
import type {
  AccountBrief,
  AssetInput,
  InvitePayload,
  Member,
  OrganizationNode,
  PermissionNode,
  PermissionTemplate,
  ProfileInput,
  Project,
  Role,
  Share,
  ShareInput,
  TemplateCodes,
  Transfer,
} from './organization';
import type {
  AlarmRule,
  DataApiKey,
  DeviceModelCode,
  DeviceSeries,
  DeviceType,
  DeviceTypeOption,
  Domain,
  Firmware,
  FleetAlarm,
  FleetDevice,
  GuidBatch,
  GuidExportRecord,
  ParamUnit,
  SimCard,
  SimImportResult,
  UpgradeTarget,
} from './product';
import type { ExportRequest, Receiver, ReportKind, ScheduledReportInput } from './report';
import type {
  Controller,
  Overview,
  Probe,
  ProbeInput,
  Storage,
  StorageAlarm,
  StorageChart,
  StorageCommand,
  StorageCounts,
  StorageForm,
  StorageParam,
  StorageParams,
  StorageSeries,
  TopUp,
} from './storage';
import type {
  FenceEvent,
  FenceInput,
  Position,
  PublicWaybill,
  ShareAccess,
  SharedWaybill,
  TrackStop,
  WaybillAlarm,
  WaybillInput,
  WaybillShare,
  WaybillStatus,
} from './waybill';

// account.ts
export type PasswordLoginPayloadShape = Check<Mirrors<PasswordLoginPayload, Schemas['PasswordLogin']>>;
export type BaseAccountShape = Check<SameFields<BaseAccount, Schemas['BaseAccount']>>;
export type OrgWithRoleShape = Check<Mirrors<OrgWithRole, Schemas['OrgWithRole']>>;
export type AccountInfoShape = Check<SameFields<AccountInfo, Schemas['AccountInfo']>>;
export type SocialResultShape = Check<Mirrors<SocialResult, Schemas['SocialLoginResult']>>;
// alarm.ts
export type AlarmShape = Check<Mirrors<Alarm, Schemas['Alarm']>>;
export type AlarmMessageShape = Check<Mirrors<AlarmMessage, Schemas['Message']>>;
export type MessageQueryShape = Check<Mirrors<MessageQuery, Schemas['MessagePageQuery']>>;
export type UnreadCountShape = Check<Mirrors<UnreadCount, Schemas['Unread']>>;
export type DeviceAlarmStatusShape = Check<Mirrors<DeviceAlarmStatus, Schemas['DeviceAlarmStatus']>>;
export type NotificationShape = Check<Mirrors<Notification, Schemas['Outbox']>>;
export type RecipientShape = Check<Mirrors<Recipient, Schemas['Recipient']>>;
export type PushLevelShape = Check<SameFields<PushLevel, Schemas['Level']>>;
export type PushSettingShape = Check<SameFields<PushSetting, Schemas['PushSetting']>>;
export type SensorLimitPeriodShape = Check<Mirrors<SensorLimitPeriod, Schemas['SensorLimitPeriod']>>;
// billing.ts
export type PriceRowShape = Check<Mirrors<PriceRow, Schemas['PriceRow']>>;
export type ServiceLevelShape = Check<SameFields<ServiceLevel, Schemas['ServiceLevel']>>;
export type MessagePackShape = Check<Mirrors<MessagePack, Schemas['MessagePack']>>;
export type InvoiceInfoShape = Check<Mirrors<InvoiceInfo, Schemas['InvoiceInfo']>>;
export type OfflinePurchaseShape = Check<Mirrors<OfflinePurchase, Schemas['Offline']>>;
export type ActivityShape = Check<Mirrors<Activity, Schemas['Activity']>>;
export type MerchantShape = Check<Mirrors<Merchant, Schemas['Merchant']>>;
// calibration.ts
export type PriceShape = Check<Mirrors<Price, Schemas['Price']>>;
export type ItemInputShape = Check<SameFields<ItemInput, Schemas['ItemInput']>>;
export type InvoiceShape = Check<Mirrors<Invoice, Schemas['Invoice']>>;
export type HistoryShape = Check<Mirrors<History, Schemas['History']>>;
export type ApplicationPaymentShape = Check<Mirrors<ApplicationPayment, Schemas['ApplicationPayment']>>;
export type CertificateLinkShape = Check<Mirrors<CertificateLink, Schemas['CertificateBrief']>>;
export type ResultShape = Check<Mirrors<Result, Schemas['ResultUpdate']>>;
export type PointInputShape = Check<Mirrors<PointInput, Schemas['PointInput']>>;
export type ItemResultsShape = Check<Mirrors<ItemResults, Schemas['ItemResults']>>;
export type ExplanationShape = Check<Mirrors<Explanation, Schemas['Explain']>>;
export type QuickOrderInputShape = Check<Mirrors<QuickOrderInput, Schemas['QuickOrderInput']>>;
export type VerificationShape = Check<Mirrors<Verification, Schemas['Verification']>>;
export type DeviceCertificateShape = Check<Mirrors<DeviceCertificate, Schemas['DeviceCertificate']>>;
export type OrderQueryShape = Check<Mirrors<OrderQuery, Schemas['ApplicationQuery']>>;
// customization.ts
export type CustomPageAdminShape = Check<Mirrors<CustomPageAdmin, Schemas['Admin']>>;
// dataInterface.ts
export type ConnectorShape = Check<Mirrors<Connector, Schemas['Connector']>>;
export type ConnectorInputShape = Check<SameFields<ConnectorInput, Schemas['ConnectorInsert']>>;
export type ConnectorTargetShape = Check<Mirrors<ConnectorTarget, Schemas['Target']>>;
export type DeliveryShape = Check<Mirrors<Delivery, Schemas['Delivery']>>;
// device.ts
export type DeviceShape = Check<Mirrors<Device, Schemas['DeviceItem']>>;
export type DeviceSensorShape = Check<Mirrors<DeviceSensor, Schemas['Sensor']>>;
export type DeviceParamShape = Check<Mirrors<DeviceParam, Schemas['DeviceParam']>>;
export type StatusCountShape = Check<Mirrors<StatusCount, Schemas['StatusCount']>>;
export type DevicePageQueryShape = Check<Mirrors<DevicePageQuery, Schemas['DevicePageQuery']>>;
export type ChartAnswerShape = Check<SameFields<ChartAnswer, Schemas['Chart']>>;
export type TrackPointShape = Check<Mirrors<TrackPoint, Schemas['TrackPoint']>>;
export type EnergyMonthShape = Check<Mirrors<EnergyMonth, Schemas['EnergyMonth']>>;
export type MaintenanceInputShape = Check<Mirrors<MaintenanceInput, Schemas['MaintenanceRecordInput']>>;
export type ExpiredDeviceShape = Check<SameFields<ExpiredDevice, Schemas['ExpiredDevice']>>;
export type QuickQueryAnswerShape = Check<SameFields<QuickQueryAnswer, Schemas['QuickResult']>>;
export type BatchResultShape = Check<Mirrors<BatchResult, Schemas['BatchResult']>>;
// dictionary.ts
export type TimeZoneOptionShape = Check<Mirrors<TimeZoneOption, Schemas['TimeZone']>>;
// fda.ts
export type FdaConfigShape = Check<Mirrors<FdaConfig, Schemas['FdaConfig']>>;
export type EndorsementShape = Check<Mirrors<Endorsement, Schemas['Endorsement']>>;
export type SequenceStepShape = Check<Mirrors<SequenceStep, Schemas['SequenceStep']>>;
export type SigningSequenceShape = Check<Mirrors<SigningSequence, Schemas['Sequence']>>;
export type SignatureShape = Check<Mirrors<Signature, Schemas['Signature']>>;
export type IntegrityShape = Check<Mirrors<Integrity, Schemas['Integrity']>>;
export type ManifestationShape = Check<Mirrors<Manifestation, Schemas['Manifestation']>>;
export type FileStepShape = Check<Mirrors<FileStep, Schemas['FileStep']>>;
export type DataFileShape = Check<Mirrors<DataFile, Schemas['DataFile']>>;
export type CheckerShape = Check<Mirrors<Checker, Schemas['Checker']>>;
export type PublicVerificationShape = Check<Mirrors<PublicVerification, Schemas['PublicVerification']>>;
export type FrozenSensorShape = Check<Mirrors<FrozenSensor, Schemas['FrozenSensor']>>;
export type RecordVersionShape = Check<Mirrors<RecordVersion, Schemas['RecordVersion']>>;
export type VersionSealShape = Check<Mirrors<VersionSeal, Schemas['VersionSeal']>>;
// help.ts
export type HelpArticleTitleShape = Check<Mirrors<HelpArticleTitle, Schemas['HelpArticleTitle']>>;
export type HelpCenterCategoryShape = Check<Mirrors<HelpCenterCategory, Schemas['HelpCenterCategory']>>;
export type HelpSearchArgsShape = Check<Mirrors<HelpSearchArgs, Schemas['HelpSearch']>>;
export type ManagedHelpCategoryShape = Check<Mirrors<ManagedHelpCategory, Schemas['HelpCategory']>>;
export type ManagedHelpArticleShape = Check<Mirrors<ManagedHelpArticle, Schemas['HelpArticle']>>;
// noticeAdmin.ts
export type ManagedNoticeShape = Check<Mirrors<ManagedNotice, Schemas['Notice']>>;
// operation.ts
export type StaffRoleShape = Check<Mirrors<StaffRole, Schemas['StaffRole']>>;
// organization.ts
export type OrganizationNodeShape = Check<Mirrors<OrganizationNode, Schemas['Organization']>>;
export type MemberShape = Check<Mirrors<Member, Schemas['Member']>>;
export type AccountBriefShape = Check<Mirrors<AccountBrief, Schemas['AccountBrief']>>;
export type InvitePayloadShape = Check<Mirrors<InvitePayload, Schemas['Invite']>>;
export type ProfileInputShape = Check<SameFields<ProfileInput, Schemas['UpdateInfo']>>;
export type RoleShape = Check<Mirrors<Role, Schemas['Role']>>;
export type PermissionNodeShape = Check<Mirrors<PermissionNode, Schemas['PermissionNode']>>;
export type PermissionTemplateShape = Check<SameFields<PermissionTemplate, Schemas['Template']>>;
export type TemplateCodesShape = Check<Mirrors<TemplateCodes, Schemas['TemplateCodes']>>;
export type ShareInputShape = Check<Mirrors<ShareInput, Schemas['ShareInput']>>;
export type ShareShape = Check<Mirrors<Share, Schemas['Share']>>;
export type TransferShape = Check<Mirrors<Transfer, Schemas['Transfer']>>;
export type ProjectShape = Check<Mirrors<Project, Schemas['Project']>>;
export type AssetInputShape = Check<Mirrors<AssetInput, Schemas['AssetUpdate']>>;
// product.ts
export type DeviceModelCodeShape = Check<SameFields<DeviceModelCode, Schemas['DeviceModelCode']>>;
export type DeviceTypeShape = Check<SameFields<DeviceType, Schemas['DeviceType']>>;
export type DeviceTypeOptionShape = Check<Mirrors<DeviceTypeOption, Schemas['DeviceTypeOption']>>;
export type ParamUnitShape = Check<Mirrors<ParamUnit, Schemas['ParamUnit']>>;
export type GuidBatchShape = Check<SameFields<GuidBatch, Schemas['GuidBatch']>>;
export type GuidExportRecordShape = Check<Mirrors<GuidExportRecord, Schemas['GuidExportRecord']>>;
export type DomainShape = Check<Mirrors<Domain, Schemas['Domain']>>;
export type SimCardShape = Check<SameFields<SimCard, Schemas['SimCard']>>;
export type SimImportResultShape = Check<Mirrors<SimImportResult, Schemas['SimImportResult']>>;
export type AlarmRuleShape = Check<Mirrors<AlarmRule, Schemas['AlarmRule']>>;
export type DataApiKeyShape = Check<SameFields<DataApiKey, Schemas['DataApiKeyCreated']>>;
export type FleetDeviceShape = Check<Mirrors<FleetDevice, Schemas['FleetDevice']>>;
export type FleetAlarmShape = Check<Mirrors<FleetAlarm, Schemas['FleetAlarm']>>;
export type DeviceSeriesShape = Check<Mirrors<DeviceSeries, Schemas['Series']>>;
export type FirmwareShape = Check<Mirrors<Firmware, Schemas['Firmware']>>;
export type UpgradeTargetShape = Check<Mirrors<UpgradeTarget, Schemas['UpgradeTarget']>>;
// report.ts
export type ExportRequestShape = Check<SameFields<ExportRequest, Schemas['ExportRequest']>>;
export type ReceiverShape = Check<Mirrors<Receiver, Schemas['Receiver']>>;
export type ScheduledReportInputShape = Check<SameFields<ScheduledReportInput, Schemas['ScheduledReportInput']>>;
export type ReportKindShape = Check<Mirrors<ReportKind, Schemas['ReportKind']>>;
// storage.ts
export type ProbeShape = Check<Mirrors<Probe, Schemas['StorageProbe']>>;
export type ControllerShape = Check<Mirrors<Controller, Schemas['StorageController']>>;
export type StorageShape = Check<Mirrors<Storage, Schemas['Storage']>>;
export type ProbeInputShape = Check<Mirrors<ProbeInput, Schemas['StorageProbeInput']>>;
export type StorageFormShape = Check<SameFields<StorageForm, Schemas['StorageInput']>>;
export type StorageCountsShape = Check<Mirrors<StorageCounts, Schemas['StorageStatusCount']>>;
export type OverviewShape = Check<Mirrors<Overview, Schemas['StorageOverview']>>;
export type StorageSeriesShape = Check<SameFields<StorageSeries, Schemas['StorageChartSeries']>>;
export type StorageChartShape = Check<SameFields<StorageChart, Schemas['StorageChart']>>;
export type StorageAlarmShape = Check<Mirrors<StorageAlarm, Schemas['StorageAlarm']>>;
export type StorageParamShape = Check<Mirrors<StorageParam, Schemas['StorageParam']>>;
export type StorageParamsShape = Check<Mirrors<StorageParams, Schemas['StorageParams']>>;
export type TopUpShape = Check<Mirrors<TopUp, Schemas['StorageTopUp']>>;
export type StorageCommandShape = Check<Mirrors<StorageCommand, Schemas['StorageCommand']>>;
// waybill.ts
export type WaybillInputShape = Check<Mirrors<WaybillInput, Schemas['WaybillInput']>>;
export type PositionShape = Check<Mirrors<Position, Schemas['WaybillPosition']>>;
export type TrackStopShape = Check<Mirrors<TrackStop, Schemas['WaybillStop']>>;
export type FenceEventShape = Check<Mirrors<FenceEvent, Schemas['FenceEvent']>>;
export type WaybillAlarmShape = Check<Mirrors<WaybillAlarm, Schemas['WaybillAlarm']>>;
export type WaybillStatusShape = Check<Mirrors<WaybillStatus, Schemas['WaybillStatus']>>;
export type PublicWaybillShape = Check<Mirrors<PublicWaybill, Schemas['PublicWaybill']>>;
export type SharedWaybillShape = Check<Mirrors<SharedWaybill, Schemas['SharedWaybill']>>;
export type FenceInputShape = Check<Mirrors<FenceInput, Schemas['FenceInput']>>;
export type WaybillShareShape = Check<Mirrors<WaybillShare, Schemas['WaybillShareCreated']>>;
export type ShareAccessShape = Check<Mirrors<ShareAccess, Schemas['WaybillShareAccess']>>;

// The checks refuse a shape that drifted (kept honest by these expected errors).
// @ts-expect-error a field the api does not have
export type ExtraFieldRefused = Check<Mirrors<{ token: string; refresh: string }, Schemas['Token']>>;
// @ts-expect-error a field typed otherwise than the api types it
export type OtherTypeRefused = Check<Mirrors<{ token: number }, Schemas['Token']>>;
// @ts-expect-error a field of the api the web does not name
export type MissingFieldRefused = Check<SameFields<{ email: string }, Schemas['EmailLogin']>>;
