// Allowed: the rentals' components are feature code waiting for their move; like a feature, they use another's public modules.
import { VehicleImage } from '../../features/vehicle/vehicle-image.tsx';

export const image = VehicleImage;
