import { useHref } from 'react-router';
import { paths } from '../../lib/paths.ts';
import { promptInstall, useCanInstall } from './install-prompt-store.ts';

/**
 * "Download App" (decision 121), the one way to the app on every page: to the dealer's Play Store
 * listing or APK when ANDROID_APP_URL names one; otherwise the web app itself, installed at once
 * where the browser offers to (Chrome on Android builds a real Android package from the
 * manifest), and the install steps (/app) where it does not (Safari: Share, Add to Home Screen).
 * The server and the hydrating page render the same link; only a click reads the browser's offer.
 */
export function DownloadAppLink({ storeUrl, className, children }: { storeUrl: string; className: string; children: React.ReactNode }) {
  const steps = useHref(paths.getApp);
  const canInstall = useCanInstall();
  return (
    <a
      href={storeUrl || steps}
      rel={storeUrl ? 'noopener' : undefined}
      className={className}
      onClick={(event) => {
        if (storeUrl || !canInstall) return;
        event.preventDefault();
        void promptInstall();
      }}
    >
      {children}
    </a>
  );
}
