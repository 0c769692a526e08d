import { App } from 'antd';
import { useTranslation } from 'next-i18next/pages';
import { useCallback } from 'react';
import { deleteDevice, deviceAction, setFocus, type Device } from '@/api/device';

export type RowAction = 'enable' | 'disable' | 'scrap' | 'delete' | 'pin' | 'unpin';

/** Whether an action applies to a device in its state (scrapped devices only keep history). */
export function actionsFor(device: Pick<Device, 'status' | 'useFlag' | 'focus'>): RowAction[] {
  const list: RowAction[] = [device.focus ? 'unpin' : 'pin'];
  if (device.status === 'deactivated') return [...list, 'delete'];
  list.push(device.useFlag && device.status !== 'disabled' ? 'disable' : 'enable');
  return [...list, 'scrap', 'delete'];
}

/** Row actions with their confirmations (scrap is irreversible), then `onDone` to reload. */
export function useDeviceActions(onDone: () => void) {
  const { t } = useTranslation('device');
  const { modal, message } = App.useApp();
  return useCallback(
    (action: RowAction, device: Device) => {
      const run = async () => {
        if (action === 'pin' || action === 'unpin') await setFocus(device.id, action === 'pin');
        else if (action === 'delete') await deleteDevice(device.id);
        else await deviceAction(action === 'disable' ? 'stopUsing' : action, device.id);
        void message.success(t('done'));
        onDone();
      };
      if (action === 'pin' || action === 'unpin') {
        void run().catch(() => undefined);
        return;
      }
      modal.confirm({
        title: device.deviceName,
        content: t(`confirm.${action}`),
        okText: t(`action.${action}`),
        cancelText: t('action.cancel'),
        okButtonProps: { danger: action === 'scrap' || action === 'delete' },
        onOk: () => run().catch(() => undefined),
      });
    },
    [modal, message, t, onDone],
  );
}
