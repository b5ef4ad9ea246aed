import { paths } from '../lib/paths.ts';
import { commonText as t } from '../lib/i18n/common.ts';

/** The menu of the top bar's dropdown and of the drawer, in the spec's order, in the page's language. */
export function menuLinks() {
  return [
    { to: paths.home, label: t('home') },
    { to: paths.categories(), label: t('categories') },
    { to: paths.rent(), label: t('rentACar') },
    { to: paths.wishlist, label: t('wishlist') },
    { to: paths.profile, label: t('profile') },
    { to: paths.about, label: t('aboutUs') },
    { to: paths.contact, label: t('contact') },
    { to: paths.requestVehicle, label: t('requestVehicle') },
    { to: paths.sellVehicle, label: t('sellVehicle') },
  ];
}
