import { useEffect, useState } from 'react';
import type { Toast as ToastMessage } from '../../lib/toast.ts';
import { adminShellText as t } from './admin-shell-texts.ts';

export const TOAST_MS = 3000;

/**
 * A toast that closes itself after 3 seconds (SPEC 4, Toasts): bottom centre on the inventory
 * screens, bottom right on the vehicle edit form. A new toast object restarts the timer.
 */
export function Toast({ toast, position = 'bottom-center' }: { toast: ToastMessage | null | undefined; position?: 'bottom-center' | 'bottom-right' }) {
  const [closed, setClosed] = useState<ToastMessage | null>(null);
  useEffect(() => {
    if (!toast) return;
    const timer = setTimeout(() => setClosed(toast), TOAST_MS);
    return () => clearTimeout(timer);
  }, [toast]);
  const visible = toast && closed !== toast;
  // On phones the edit form's sticky save bar sits at the bottom: the toast stays above it.
  const place = position === 'bottom-right' ? 'bottom-24 right-4 sm:bottom-6 sm:right-6' : 'bottom-6 left-1/2 -translate-x-1/2';
  return (
    <div aria-live="polite" className={`fixed z-50 ${place}`}>
      {visible ? (
        <div
          role={toast.tone === 'error' ? 'alert' : 'status'}
          className={`flex items-center gap-3 rounded-xl px-4 py-3 text-sm font-semibold text-white shadow-lg ${toast.tone === 'error' ? 'bg-red-700' : 'bg-emerald-700'}`}
        >
          <span>{toast.text}</span>
          <button type="button" onClick={() => setClosed(toast)} aria-label={t('closeNotification')} className="rounded px-1 text-white/80 hover:text-white">
            ×
          </button>
        </div>
      ) : null}
    </div>
  );
}
