import { accountInfo, type AccountInfo } from '@/api/account';

/** Spec 6: an account without permissions cannot use the console. */
export class NoRolesError extends Error {
  constructor() {
    super('getInfo: roles must be a non-null array');
    this.name = 'NoRolesError';
  }
}

export const ACCOUNT_INFO_KEY = 'accountInfo';

/** accountInfo, refused when the permission list is empty (spec 6 and the error catalogue). */
export async function loadAccountInfo(): Promise<AccountInfo> {
  const info = await accountInfo();
  if (!Array.isArray(info?.permissionRoutes) || info.permissionRoutes.length === 0) throw new NoRolesError();
  return info;
}
