import dynamic from 'next/dynamic';

/** react-apexcharts in the browser only (ApexCharts needs window). */
export const ApexChart = dynamic(() => import('react-apexcharts'), { ssr: false });
