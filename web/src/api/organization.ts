/**
 * Organisations, members (the account calls of business spec 7), roles, permission templates,
 * sharing, transfer, projects, assets and the operation log.
 */
import type { Page } from '@/components/ui/table';
import type { DevicePermission } from '@/routes/permissions';
import type { Device } from './device';
import { del, get, post, put } from './client';

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

export interface OrganizationInput {
  name: string;
  parentId: number | null;
}

export const organizationTree = () => get<OrganizationNode[]>(`${ORG}/tree`);
export const insertOrganization = (input: OrganizationInput) => post<OrganizationNode>(`${ORG}/insert`, input);
export const updateOrganization = (input: OrganizationInput & { id: number }) => put<OrganizationNode>(`${ORG}/update`, input);
export const deleteOrganization = (id: number) => del<null>(`${ORG}/delete/${id}`);
export const transferCreator = (organizationId: number, accountId: number) => put<null>(`${ORG}/transferCreator`, { organizationId, accountId });
export const bindDevices = (organizationId: number, deviceIds: number[]) => post<null>(`${ORG}/bindDevice`, { organizationId, deviceIds });
export const unbindDevices = (organizationId: number, deviceIds: number[]) => post<null>(`${ORG}/unbindDevice`, { organizationId, deviceIds });
export const organizationDevices = (args: PageArgs & { organizationId: number }) => post<Page<Device>>(`${ORG}/devicePage`, args);

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

export interface AccountBrief {
  id: number;
  userName: string;
  realName: string | null;
  phone: string | null;
  email: string | null;
}

export interface InvitePayload {
  organizationId: number;
  roleId?: number | null;
  phone?: string;
  email?: string;
  inviterName: string;
}

export const memberPage = (args: PageArgs & { organizationId?: number; keyword?: string }) => post<Page<Member>>(`${ACCOUNT}/getAccountList/page`, args);
export const queryUserByCondition = (args: PageArgs & MemberQuery) => post<Page<Member>>(`${ACCOUNT}/queryUserByCondition`, args);
export const queryAccountByUEP = (keyword: string) => get<AccountBrief | null>(`${ACCOUNT}/queryAccountByUEP`, { keyword });
export const accountByPhone = (phone: string) => get<AccountBrief | null>(`${ACCOUNT}/getAccountInfoByPhone`, { phone });
export const accountByEmail = (email: string) => get<AccountBrief | null>(`${ACCOUNT}/getAccountInfoByEamil`, { email });
export const invite = (payload: InvitePayload) => post<{ added: boolean; invited: boolean }>(`${ACCOUNT}/invite`, payload);
export const acceptInvite = (token: string) => post<{ organizationId: number }>(`${ACCOUNT}/acceptInvite`, { token });
export const organizationAddUser = (organizationId: number, accountId: number, roleId: number | null) =>
  post<null>(`${ACCOUNT}/organizationAddUser`, { organizationId, accountId, roleId });
export const deleteInOrganization = (organizationId: number, accountId: number) => del<null>(`${ACCOUNT}/deleteInOrganization`, { organizationId, accountId });
export const updateAccountOrganizationRel = (accountId: number, organizationId: number, newOrganizationId: number, roleId: number | null) =>
  put<null>(`${ACCOUNT}/updateAccountOrganizationRel`, { accountId, organizationId, newOrganizationId, roleId });

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

export type RoleInput = Pick<Role, 'roleName' | 'description' | 'permissions'> & { id?: number; roleType?: Role['roleType'] };

export const permissionTree = () => get<PermissionNode[]>(`${ROLE}/permissionTree`);
export const rolePage = (args: PageArgs & { roleName?: string }) => post<Page<Role>>(`${ROLE}/page`, args);
export const rolesByOrganizationType = (organizationType: 'enterprise' | 'personal' = 'enterprise') =>
  get<Role[]>(`${ROLE}/queryRoleByOrganizationType`, { organizationType });
export const saveRole = (input: RoleInput) => (input.id ? put<Role>(`${ROLE}/update`, input) : post<Role>(`${ROLE}/insert`, input));
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

export const templateList = () => get<PermissionTemplate[]>(`${DEVICE}/DevicePermissionTemplate/list`);
export const templateCodes = () => get<TemplateCodes>(`${DEVICE}/DevicePermissionTemplate/codes`);
export const saveTemplate = (input: { id?: number; name: string; items: DevicePermission[] }) =>
  input.id ? put<PermissionTemplate>(`${DEVICE}/DevicePermissionTemplate/update`, input) : post<PermissionTemplate>(`${DEVICE}/DevicePermissionTemplate/insert`, input);
export const deleteTemplate = (id: number) => del<null>(`${DEVICE}/DevicePermissionTemplate/delete/${id}`);
export const shareDevices = (input: ShareInput) => post<{ id: number }[]>(`${DEVICE}/DeviceShare/insert`, input);
export const sharePage = (args: PageArgs & { keyword?: string }) => post<Page<Share>>(`${DEVICE}/DeviceShare/page`, args);
export const receivedShares = (args: PageArgs & { keyword?: string }) => post<Page<Share>>(`${DEVICE}/DeviceShare/received`, args);
export const updateShare = (input: { id: number; sharerName: string; templateId: number; expire: ShareExpiry; expireTime?: string }) =>
  put<null>(`${DEVICE}/DeviceShare/update`, input);
export const deleteShare = (id: number) => del<null>(`${DEVICE}/DeviceShare/delete/${id}`);
export const quitShare = (id: number) => del<null>(`${DEVICE}/DeviceShare/quit/${id}`);
export const offerTransfer = (input: { deviceId: number; userName?: string; phone?: string; email?: string }) => post<Transfer>(`${DEVICE}/DeviceTransfer/insert`, input);
export const transferPage = (args: PageArgs) => post<Page<Transfer>>(`${DEVICE}/DeviceTransfer/page`, args);
export const decideTransfer = (id: number, decision: 'accept' | 'reject' | 'cancel') => put<null>(`${DEVICE}/DeviceTransfer/${decision}/${id}`);

// ---- projects and assets ---------------------------------------------------------------------------------

export interface Project {
  id: number;
  projectName: string;
  deviceIds: number[];
  gmtCreate: string;
}

export const projectPage = (args: PageArgs & { projectName?: string }) => post<Page<Project>>('/base/BaseProject/page', args);
export const saveProject = (input: { id?: number; projectName: string; deviceIds: number[] }) =>
  input.id ? put<Project>('/base/BaseProject/update', input) : post<Project>('/base/BaseProject/insert', input);
export const deleteProject = (id: number) => del<null>(`/base/BaseProject/delete/${id}`);

export interface AssetCustom {
  key: string;
  value: string;
}

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

export const assetPage = (args: PageArgs & { combName?: string }) => post<Page<Asset>>('/base/BaseAsset/page', args);
export const assetDetail = (id: number) => get<Asset>(`/base/BaseAsset/detail/${id}`);
export const saveAsset = (input: AssetInput) => (input.id ? put<Asset>('/base/BaseAsset/update', input) : post<Asset>('/base/BaseAsset/insert', input));
export const deleteAsset = (id: number) => del<null>(`/base/BaseAsset/delete/${id}`);
export const switchAsset = (id: number, enabled: boolean) => put<Asset>(`/base/BaseAsset/${enabled ? 'enable' : 'disable'}/${id}`);

// ---- operation log -------------------------------------------------------------------------------------------

export interface RowChange {
  table: string;
  id: string;
  values: Record<string, unknown>;
}

export interface OperationLogEntry {
  id: number;
  accountId: number | null;
  userName: string;
  action: string;
  summary: string;
  method: string;
  path: string;
  target: string | null;
  before: RowChange[];
  after: RowChange[];
  ip: string | null;
  gmtCreate: string;
}

export const operationLogPage = (args: PageArgs & { userName?: string; keyword?: string; startTime?: string; endTime?: string }) =>
  post<Page<OperationLogEntry>>('/base/BaseOperationLog/page', args);
