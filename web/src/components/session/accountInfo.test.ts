import { beforeEach, describe, expect, it, vi } from 'vitest';
import { loadAccountInfo, NoRolesError } from './accountInfo';

const accountInfo = vi.hoisted(() => vi.fn());
vi.mock('@/api/account', () => ({ accountInfo }));

const info = (permissionRoutes: unknown) => ({
  baseAccount: { id: 1, userName: 'demouser' },
  permissionRoutes,
  orgWithMyRole: [],
  userProfile: { homePage: '/home' },
});

beforeEach(() => accountInfo.mockReset());

describe('loadAccountInfo (spec 6, error catalogue)', () => {
  it('answers the account info with its permissions', async () => {
    accountInfo.mockResolvedValue(info(['home']));
    await expect(loadAccountInfo()).resolves.toMatchObject({ permissionRoutes: ['home'] });
  });

  it.each([[[]], [null], [undefined]])('refuses the permission list %j with the spec message', async (routes) => {
    accountInfo.mockResolvedValue(info(routes));
    const error = await loadAccountInfo().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NoRolesError);
    expect((error as Error).message).toBe('getInfo: roles must be a non-null array');
  });
});
