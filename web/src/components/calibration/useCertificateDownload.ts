import { App } from 'antd';
import { useTranslation } from 'next-i18next/pages';
import { downloadOrder, downloadReport, isCancelled } from '@/api/calibration';
import { saveBlob } from '@/api/report';
import { useDebouncedCallback } from '@/hooks/useDebouncedCallback';

/** Calibration downloads are debounced 1000 ms (the issue). */
export const DOWNLOAD_DEBOUNCE_MS = 1000;

interface Order {
  applicationId: number;
  orderNo: string;
  calibrationStatus: number;
}

/**
 * The certificate PDF of an order (or of one instrument): refused without a call when the order
 * is cancelled (status above 6: 'this order has been cancelled'); a file that is not a PDF gives
 * 'file failed'; the file name comes from the content-disposition header.
 */
export function useCertificateDownload() {
  const { t } = useTranslation('calibration');
  const { message } = App.useApp();
  return useDebouncedCallback(async (order: Order, itemId?: number) => {
    if (isCancelled(order.calibrationStatus)) {
      void message.error(t('download.cancelled'));
      return;
    }
    const answer = await downloadOrder(order.applicationId, itemId);
    if (!answer?.data) return;
    if (answer.data.type !== 'application/pdf') {
      void message.error(t('download.failed'));
      return;
    }
    saveBlob(answer, `${order.orderNo}.pdf`);
  }, DOWNLOAD_DEBOUNCE_MS);
}

export function useReportDownload() {
  const { t } = useTranslation('calibration');
  const { message } = App.useApp();
  return useDebouncedCallback(async (order: Order) => {
    if (isCancelled(order.calibrationStatus)) {
      void message.error(t('download.cancelled'));
      return;
    }
    const answer = await downloadReport(order.applicationId);
    if (!answer?.data) return;
    if (answer.data.type !== 'application/pdf') {
      void message.error(t('download.failed'));
      return;
    }
    saveBlob(answer, `report-${order.orderNo}.pdf`);
  }, DOWNLOAD_DEBOUNCE_MS);
}
