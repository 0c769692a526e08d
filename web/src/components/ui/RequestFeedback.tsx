import { App } from 'antd';
import { useTranslation } from 'next-i18next/pages';
import { useEffect } from 'react';
import { setClientHandlers } from '@/api/client';
import { failureText } from '@/api/errors';
import { NOTIFICATION_DURATION_S } from './constants';

/** Shows the request client's failures (spec section 8) with antd's message and notification. */
export function RequestFeedback() {
  const { message, notification } = App.useApp();
  const { t } = useTranslation('common');
  useEffect(() => {
    setClientHandlers({
      notify: (failure) => {
        const { message: text, description } = failureText(failure, t);
        if (description) notification.error({ title: text, description, duration: NOTIFICATION_DURATION_S });
        else void message.error({ content: text, duration: NOTIFICATION_DURATION_S });
      },
    });
  }, [message, notification, t]);
  return null;
}
