/**
 * Organisations, members (the account calls of business spec 7), roles, permission templates,
 * sharing, transfer, projects, assets and the operation log.
 */
import type { Page } from '@/components/ui/table';
import type { DevicePermission } from '@/routes/permissions';
import type { Device } from './device';
import type { ExportFile } from './report';
import { fetchRead, readKey } from './read';
import { del, get, getBlob, post, put } from './client';
import type { Schemas } from './generated';

const ACCOUNT = '/base/BaseAccount';
const ORG = '/base/BaseOrganization';
const ROLE = '/base/BaseRole';
const DEVICE = '/device';

export interface PageArgs {
  start: number;
  pageSize: number;
}

// ---- organisations ------------------------------------------------------------------------------

export interface OrganizationNode {
  id: number;
  name: string;
  parentId: number | null;
  creatorId: number;
  creatorName: string | null;
  memberCount: number;
  deviceCount: number;
  gmtCreate: string;
  children: OrganizationNode[];
}

export type OrganizationInput = Schemas['OrganizationInsert'];

export const organizationTreeKey = () => readKey(`${ORG}/tree`);
export const organizationTree = () => fetchRead<OrganizationNode[]>(organizationTreeKey());
export const insertOrganization = (input: OrganizationInput) => post<OrganizationNode>(`${ORG}/insert`, input);
export const updateOrganization = (input: OrganizationInput & { id: number }) =>
  put<OrganizationNode>(`${ORG}/update`, input);
export const deleteOrganization = (id: number) => del<null>(`${ORG}/delete/${id}`);
export const transferCreator = (organizationId: number, accountId: number) =>
  put<null>(`${ORG}/transferCreator`, { organizationId, accountId });
export const bindDevices = (organizationId: number, deviceIds: number[]) =>
  post<null>(`${ORG}/bindDevice`, { organizationId, deviceIds });
export const unbindDevices = (organizationId: number, deviceIds: number[]) =>
  post<null>(`${ORG}/unbindDevice`, { organizationId, deviceIds });
export const organizationDevicesKey = (args: PageArgs & { organizationId: number }) =>
  readKey(`${ORG}/devicePage`, args, 'post');
export const organizationDevices = (args: PageArgs & { organizationId: number }) =>
  fetchRead<Page<Device>>(organizationDevicesKey(args));

// ---- members (spec 7 account calls) -------------------------------------------------------------------

export interface Member {
  accountId: number;
  userName: string;
  realName: string | null;
  phone: string | null;
  email: string | null;
  organizationId: number;
  organizationName: string;
  roleId: number | null;
  roleName: string | null;
  gmtCreate: string;
}

export interface MemberQuery {
  organizationId?: number;
  userName?: string;
  phone?: string;
  email?: string;
  roleId?: number;
}

/** What a lookup by phone, email or user name tells a manager: never the account's id or names. */
export interface AccountBrief {
  canInvite: boolean;
  /** Masked: first character and **. */
  name: string | null;
  phone: string | null;
  email: string | null;
  /** Names the account to organizationAddUser for 15 minutes (null for yourself). */
  ticket: string | null;
}

export interface InvitePayload {
  organizationId: number;
  roleId?: number | null;
  phone?: string;
  email?: string;
  inviterName: string;
}

export const memberPageKey = (args: PageArgs & { organizationId?: number; keyword?: string }) =>
  readKey(`${ACCOUNT}/getAccountList/page`, args, 'post');
export const memberPage = (args: PageArgs & { organizationId?: number; keyword?: string }) =>
  fetchRead<Page<Member>>(memberPageKey(args));
export const queryUserByConditionKey = (args: PageArgs & MemberQuery) =>
  readKey(`${ACCOUNT}/queryUserByCondition`, args, 'post');
export const queryUserByCondition = (args: PageArgs & MemberQuery) =>
  fetchRead<Page<Member>>(queryUserByConditionKey(args));
export const queryAccountByUEP = (keyword: string) =>
  get<AccountBrief | null>(`${ACCOUNT}/queryAccountByUEP`, { keyword });
export const accountByPhone = (phone: string) =>
  get<AccountBrief | null>(`${ACCOUNT}/getAccountInfoByPhone`, { phone });
export const accountByEmail = (email: string) =>
  get<AccountBrief | null>(`${ACCOUNT}/getAccountInfoByEamil`, { email });
export const invite = (payload: InvitePayload) =>
  post<{ added: boolean; invited: boolean }>(`${ACCOUNT}/invite`, payload);
export const acceptInvite = (token: string) => post<{ organizationId: number }>(`${ACCOUNT}/acceptInvite`, { token });
export const organizationAddUser = (organizationId: number, ticket: string, roleId: number | null) =>
  post<null>(`${ACCOUNT}/organizationAddUser`, { organizationId, ticket, roleId });
export const deleteInOrganization = (organizationId: number, accountId: number) =>
  del<null>(`${ACCOUNT}/deleteInOrganization`, { organizationId, accountId });
export const updateAccountOrganizationRel = (
  accountId: number,
  organizationId: number,
  newOrganizationId: number,
  roleId: number | null,
) => put<null>(`${ACCOUNT}/updateAccountOrganizationRel`, { accountId, organizationId, newOrganizationId, roleId });

export interface ProfileInput {
  realName?: string | null;
  companyName?: string | null;
  timeZone?: string;
  temperatureUnit?: 'C' | 'F';
}
export const updateInfo = (input: ProfileInput) => put<null>(`${ACCOUNT}/updateInfo`, input);

// ---- roles ------------------------------------------------------------------------------------------------

export interface Role {
  id: number;
  roleName: string;
  roleType: 'enterprise' | 'personal';
  description: string | null;
  permissions: string[];
  preset: boolean;
  gmtCreate: string;
}

export interface PermissionNode {
  key: string;
  action: string | null;
  children: PermissionNode[];
}

export type RoleInput = Pick<Role, 'roleName' | 'description' | 'permissions'> & {
  id?: number;
  roleType?: Role['roleType'];
};

export const permissionTreeKey = () => readKey(`${ROLE}/permissionTree`);
export const permissionTree = () => fetchRead<PermissionNode[]>(permissionTreeKey());
export const rolePageKey = (args: PageArgs & { roleName?: string }) => readKey(`${ROLE}/page`, args, 'post');
export const rolePage = (args: PageArgs & { roleName?: string }) => fetchRead<Page<Role>>(rolePageKey(args));
export const rolesByOrganizationTypeKey = (organizationType: 'enterprise' | 'personal' = 'enterprise') =>
  readKey(`${ROLE}/queryRoleByOrganizationType`, { organizationType });
export const rolesByOrganizationType = (organizationType: 'enterprise' | 'personal' = 'enterprise') =>
  fetchRead<Role[]>(rolesByOrganizationTypeKey(organizationType));
export const saveRole = (input: RoleInput) =>
  input.id ? put<Role>(`${ROLE}/update`, input) : post<Role>(`${ROLE}/insert`, input);
export const deleteRole = (id: number) => del<null>(`${ROLE}/delete/${id}`);
export const updateRoleInOrganization = (organizationId: number, accountId: number, roleId: number) =>
  put<null>(`${ROLE}/updateRoleInOrganization`, { organizationId, accountId, roleId });

// ---- permission templates, shares, transfers -----------------------------------------------------------

export interface PermissionTemplate {
  id: number;
  name: string;
  items: DevicePermission[];
  gmtCreate: string;
}

export interface TemplateCodes {
  params: { code: string; name: string; writable: boolean }[];
  blocks: string[];
}

export type ShareExpiry = '8h' | '1d' | '3d' | '7d' | 'custom';

export interface ShareInput {
  deviceIds: number[];
  userName?: string;
  phone?: string;
  email?: string;
  sharerName: string;
  templateId: number;
  expire: ShareExpiry;
  expireTime?: string;
}

export interface Share {
  id: number;
  deviceId: number;
  deviceName: string | null;
  deviceGuid: string;
  sharerName: string;
  templateId: number;
  templateName: string;
  recipientName: string | null;
  recipientPhone: string | null;
  recipientEmail: string | null;
  expireTime: string;
  expired: boolean;
  gmtCreate: string;
}

export interface Transfer {
  id: number;
  deviceId: number;
  deviceName: string | null;
  deviceGuid: string;
  fromName: string | null;
  toName: string | null;
  incoming: boolean;
  status: 'pending' | 'accepted' | 'rejected' | 'cancelled';
  gmtCreate: string;
  decidedAt: string | null;
}

export const templateListKey = () => readKey(`${DEVICE}/DevicePermissionTemplate/list`);
export const templateList = () => fetchRead<PermissionTemplate[]>(templateListKey());
export const templateCodesKey = () => readKey(`${DEVICE}/DevicePermissionTemplate/codes`);
export const templateCodes = () => fetchRead<TemplateCodes>(templateCodesKey());
export const saveTemplate = (input: { id?: number; name: string; items: DevicePermission[] }) =>
  input.id
    ? put<PermissionTemplate>(`${DEVICE}/DevicePermissionTemplate/update`, input)
    : post<PermissionTemplate>(`${DEVICE}/DevicePermissionTemplate/insert`, input);
export const deleteTemplate = (id: number) => del<null>(`${DEVICE}/DevicePermissionTemplate/delete/${id}`);
export const shareDevices = (input: ShareInput) => post<{ id: number }[]>(`${DEVICE}/DeviceShare/insert`, input);
export const sharePageKey = (args: PageArgs & { keyword?: string }) =>
  readKey(`${DEVICE}/DeviceShare/page`, args, 'post');
export const sharePage = (args: PageArgs & { keyword?: string }) => fetchRead<Page<Share>>(sharePageKey(args));
export const receivedSharesKey = (args: PageArgs & { keyword?: string }) =>
  readKey(`${DEVICE}/DeviceShare/received`, args, 'post');
export const receivedShares = (args: PageArgs & { keyword?: string }) =>
  fetchRead<Page<Share>>(receivedSharesKey(args));
export const updateShare = (input: {
  id: number;
  sharerName: string;
  templateId: number;
  expire: ShareExpiry;
  expireTime?: string;
}) => put<null>(`${DEVICE}/DeviceShare/update`, input);
export const deleteShare = (id: number) => del<null>(`${DEVICE}/DeviceShare/delete/${id}`);
export const quitShare = (id: number) => del<null>(`${DEVICE}/DeviceShare/quit/${id}`);
export const offerTransfer = (input: { deviceId: number; userName?: string; phone?: string; email?: string }) =>
  post<Transfer>(`${DEVICE}/DeviceTransfer/insert`, input);
export const transferPageKey = (args: PageArgs) => readKey(`${DEVICE}/DeviceTransfer/page`, args, 'post');
export const transferPage = (args: PageArgs) => fetchRead<Page<Transfer>>(transferPageKey(args));
export const decideTransfer = (id: number, decision: 'accept' | 'reject' | 'cancel') =>
  put<null>(`${DEVICE}/DeviceTransfer/${decision}/${id}`);

// ---- projects and assets ---------------------------------------------------------------------------------

export interface Project {
  id: number;
  projectName: string;
  deviceIds: number[];
  gmtCreate: string;
}

export const projectPageKey = (args: PageArgs & { projectName?: string }) =>
  readKey('/base/BaseProject/page', args, 'post');
export const projectPage = (args: PageArgs & { projectName?: string }) =>
  fetchRead<Page<Project>>(projectPageKey(args));
export const saveProject = (input: { id?: number; projectName: string; deviceIds: number[] }) =>
  input.id ? put<Project>('/base/BaseProject/update', input) : post<Project>('/base/BaseProject/insert', input);
export const deleteProject = (id: number) => del<null>(`/base/BaseProject/delete/${id}`);

export type AssetCustom = Schemas['CustomItem'];

export interface AssetInput {
  id?: number;
  combName: string;
  combTypeName?: string | null;
  combNum?: string | null;
  brand?: string | null;
  model?: string | null;
  volume?: string | null;
  remark?: string | null;
  organizationId?: number | null;
  custom: AssetCustom[];
  deviceIds: number[];
}

export interface Asset extends Omit<AssetInput, 'deviceIds'> {
  id: number;
  enabled: boolean;
  devices: { id: number; deviceName: string | null; deviceGuid: string; useFlag: boolean }[];
  gmtCreate: string;
}

export const assetPageKey = (args: PageArgs & { combName?: string }) => readKey('/base/BaseAsset/page', args, 'post');
export const assetPage = (args: PageArgs & { combName?: string }) => fetchRead<Page<Asset>>(assetPageKey(args));
export const assetDetailKey = (id: number) => readKey(`/base/BaseAsset/detail/${id}`);
export const saveAsset = (input: AssetInput) =>
  input.id ? put<Asset>('/base/BaseAsset/update', input) : post<Asset>('/base/BaseAsset/insert', input);
export const deleteAsset = (id: number) => del<null>(`/base/BaseAsset/delete/${id}`);
export const switchAsset = (id: number, enabled: boolean) =>
  put<Asset>(`/base/BaseAsset/${enabled ? 'enable' : 'disable'}/${id}`);

// ---- operation log -------------------------------------------------------------------------------------------

export interface RowChange {
  table: string;
  id: string;
  values: Record<string, unknown>;
  /** Which secrets the change set, changed or removed ("config.clientSecret: changed"); never their values. */
  redacted?: string[];
}

export interface OperationLogEntry {
  id: number;
  accountId: number | null;
  userName: string;
  action: string;
  summary: string;
  permissionKey: string | null;
  method: string;
  path: string;
  target: string | null;
  before: RowChange[];
  after: RowChange[];
  ip: string | null;
  reason: string | null;
  gmtCreate: string;
}

export const operationLogPageKey = (
  args: PageArgs & { userName?: string; keyword?: string; startTime?: string; endTime?: string },
) => readKey('/base/BaseOperationLog/page', args, 'post');
/** The filtered trail as CSV (oldest first, with each entry's chain hashes). */
export const exportOperationLog = (filters: {
  userName?: string;
  keyword?: string;
  startTime?: string;
  endTime?: string;
}) => getBlob('/base/BaseOperationLog/export', filters);
/** Queue the same trail as a numbered PDF for an inspector (a job; at most 10,000 entries, a wider filter is refused): the file appears in the download centre. */
export const exportOperationLogPdf = (filters: {
  userName?: string;
  keyword?: string;
  startTime?: string;
  endTime?: string;
}): Promise<ExportFile> => post('/base/BaseOperationLog/exportPdf', filters);
export const operationLogPage = (
  args: PageArgs & { userName?: string; keyword?: string; startTime?: string; endTime?: string },
) => fetchRead<Page<OperationLogEntry>>(operationLogPageKey(args));
