import { CalibrationPage } from '@/components/calibration/CalibrationPage';
import { calibrationProps } from '@/server/calibrationProps';

/** The calibration service on the phone (/mobile/calibration/...; the view by path: components/calibration/CalibrationPage). */
export const getServerSideProps = calibrationProps('mobile');

export default function Page() {
  return <CalibrationPage area="mobile" />;
}
