import { CalibrationPage } from '@/components/calibration/CalibrationPage';
import { calibrationProps } from '@/server/calibrationProps';

/** The calibration service on the desktop (/calibration/...; the view by path: components/calibration/CalibrationPage). */
export const getServerSideProps = calibrationProps('desktop');

export default function Page() {
  return <CalibrationPage area="desktop" />;
}
