import { promptInstall, useCanInstall } from './install-prompt-store.ts';
import { InstallIcon } from '../../components/icons.tsx';

/**
 * "Install app", beside the Android app link, only while the browser offers to install the
 * site (install-prompt-store.ts). The wrapper is always there, so the server's HTML and the
 * hydrating page agree; what it holds appears after hydration.
 */
export function InstallAppButton({ className, label }: { className: string; label: React.ReactNode }) {
  const canInstall = useCanInstall();
  return (
    <span data-changes-once-hydrated="" className="contents">
      {canInstall ? (
        <button type="button" onClick={() => void promptInstall()} className={className}>
          <InstallIcon className="h-5 w-5" />
          {label}
        </button>
      ) : null}
    </span>
  );
}
