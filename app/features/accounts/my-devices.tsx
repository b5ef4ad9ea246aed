import { Form } from 'react-router';
import { formatDateTime } from '../../lib/format.ts';
import { accountText as t } from '../../lib/i18n/account.ts';

export type MyDevice = { id: string; kind: 'app' | 'site'; label: string; createdAt: string; lastSeenAt: string; current: boolean };

/** The profile's list of signed-in devices (the site's and the Android app's), each with Revoke (decision 074). */
export function MyDevices({ devices, notice }: { devices: MyDevice[]; notice?: string | undefined }) {
  return (
    <section id="devices" aria-labelledby="devices-title" className="mt-8 border-t border-slate-200 pt-6">
      <h2 id="devices-title" className="text-lg font-bold">
        {t('devicesTitle')}
      </h2>
      <p className="mt-1 text-sm text-slate-600">{t('devicesText')}</p>
      {notice ? (
        <p role="status" className="mt-2 text-sm font-semibold text-slate-800">
          {notice}
        </p>
      ) : null}
      <ul className="mt-3 flex flex-col gap-3">
        {devices.map((device) => (
          <li key={device.id} className="flex flex-wrap items-center justify-between gap-3 rounded-xl p-4 ring-1 ring-slate-200">
            <div className="min-w-0">
              <p className="font-semibold [overflow-wrap:anywhere]">
                {device.label}
                {device.current ? (
                  <span className="ml-2 inline-block whitespace-nowrap rounded-full bg-green-100 px-2.5 py-0.5 text-sm font-semibold text-green-800">
                    {t('thisDevice')}
                  </span>
                ) : null}
              </p>
              <p className="text-sm text-slate-600">{t(device.kind === 'app' ? 'deviceApp' : 'deviceSite', { when: formatDateTime(device.createdAt) })}</p>
              <p className="text-sm text-slate-600">{t('lastUsed', { when: formatDateTime(device.lastSeenAt) })}</p>
            </div>
            <Form method="post">
              <input type="hidden" name="intent" value="revoke-device" />
              <input type="hidden" name="deviceId" value={device.id} />
              <button
                type="submit"
                className="min-h-11 rounded-lg px-4 font-semibold text-red-700 ring-1 ring-red-200 hover:bg-red-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-red-700"
                aria-label={t(device.current ? 'revokeThisDevice' : 'revokeDevice', { label: device.label })}
              >
                {t('revoke')}
              </button>
            </Form>
          </li>
        ))}
      </ul>
    </section>
  );
}
