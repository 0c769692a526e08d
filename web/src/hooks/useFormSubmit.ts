import type { FormInstance } from 'antd';
import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError } from '@/api/errors';
import { showServerErrors } from '@/lib/serverErrors';
import { SUBMIT_DEBOUNCE_MS } from '@/components/ui/constants';

export interface FormSubmitOptions {
  /** Api field names that the form calls otherwise. */
  aliases?: Record<string, string>;
  /** A failure without field errors goes on this field (e.g. 'The device cannot be found ...'). */
  fallbackField?: string;
  /** Called after a successful submit. */
  onDone?: () => void;
  /** Debounce (spec 9: 500 ms for every form and modal). */
  waitMs?: number;
}

/**
 * Every form's and modal's submit (spec 9): debounced 500 ms (a double click sends once), a
 * `submitting` flag for the button, the api's field errors put on the fields (422 data.errors),
 * other failures left to the request client's notice or, with `fallbackField`, shown on that field.
 */
export function useFormSubmit<V>(
  form: FormInstance | null,
  action: (values: V) => Promise<unknown>,
  options: FormSubmitOptions = {},
) {
  const [submitting, setSubmitting] = useState(false);
  const latest = useRef(options);
  useEffect(() => {
    latest.current = options;
  });
  const run = useCallback(
    async (values: V) => {
      setSubmitting(true);
      try {
        await action(values);
        latest.current.onDone?.();
        return true;
      } catch (error) {
        const { aliases, fallbackField } = latest.current;
        const shown = form ? showServerErrors(form, error, aliases) : false;
        if (!shown && form && fallbackField && error instanceof ApiError)
          form.setFields([{ name: fallbackField, errors: [error.message] }]);
        return false;
      } finally {
        setSubmitting(false);
      }
    },
    [action, form],
  );
  // Debounced (spec 9): a submit is dropped while the previous one is being answered, and within the
  // wait after one that went through (a double click sends once); after a refusal the corrected form
  // may be sent again at once.
  const waitMs = options.waitMs ?? SUBMIT_DEBOUNCE_MS;
  const last = useRef({ at: -Infinity, done: true, refused: false });
  const submit = useCallback(
    (values: V) => {
      const now = Date.now();
      const previous = last.current;
      if (!previous.done || (!previous.refused && now - previous.at < waitMs)) return;
      const entry = { at: now, done: false, refused: false };
      last.current = entry;
      void run(values).then(
        (ok) => {
          entry.refused = !ok;
          entry.done = true;
        },
        () => {
          entry.refused = true;
          entry.done = true;
        },
      );
    },
    [run, waitMs],
  );
  return { submit, submitting };
}
