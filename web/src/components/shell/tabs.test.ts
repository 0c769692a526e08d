import { describe, expect, it } from 'vitest';
import { closeTabs, EMPTY_TABS, openTab, type TabsState } from './tabs';

const three = (): TabsState =>
  [
    { key: '/home', name: 'home' },
    { key: '/device/list', name: 'device.list' },
    { key: '/consumer/info', name: 'consumer.info' },
  ].reduce(openTab, EMPTY_TABS);

const keys = (state: TabsState) => state.tabs.map((tab) => tab.key);

describe('multi-tab bar (spec 2.3)', () => {
  it('opens each page once and focuses it again', () => {
    const state = openTab(three(), { key: '/home', name: 'home' });
    expect(keys(state)).toEqual(['/home', '/device/list', '/consumer/info']);
    expect(state.active).toBe('/home');
    expect(openTab(state, { key: '/home', name: 'home' })).toBe(state);
  });

  it('closes the current tab and activates its neighbour', () => {
    const { state, refused } = closeTabs(three(), '/consumer/info', 'current');
    expect(refused).toBeUndefined();
    expect(keys(state)).toEqual(['/home', '/device/list']);
    expect(state.active).toBe('/device/list');
    expect(closeTabs(openTab(three(), { key: '/home', name: 'home' }), '/home', 'current').state.active).toBe(
      '/device/list',
    );
  });

  it('closes an inactive tab without moving', () => {
    const { state } = closeTabs(three(), '/home', 'current');
    expect(state.active).toBe('/consumer/info');
  });

  it('closes the tabs to the right and to the left', () => {
    const right = closeTabs(three(), '/device/list', 'right').state;
    expect(keys(right)).toEqual(['/home', '/device/list']);
    expect(right.active).toBe('/device/list'); // the active tab was closed: the clicked one
    const left = closeTabs(three(), '/device/list', 'left').state;
    expect(keys(left)).toEqual(['/device/list', '/consumer/info']);
    expect(left.active).toBe('/consumer/info');
  });

  it('closes all but the clicked tab', () => {
    const { state } = closeTabs(three(), '/home', 'all');
    expect(keys(state)).toEqual(['/home']);
    expect(state.active).toBe('/home');
  });

  it('refuses with the spec messages', () => {
    const one = openTab(EMPTY_TABS, { key: '/home', name: 'home' });
    expect(closeTabs(one, '/home', 'current').refused).toBe('lastTab');
    expect(closeTabs(one, '/home', 'all').refused).toBe('lastTab');
    expect(closeTabs(three(), '/home', 'left').refused).toBe('noLeft');
    expect(closeTabs(three(), '/consumer/info', 'right').refused).toBe('noRight');
    expect(closeTabs(one, '/home', 'current').state).toBe(one);
  });
});
