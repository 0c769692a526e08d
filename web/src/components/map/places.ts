/**
 * Place names the offline map can find without a map key or network: China's provinces, autonomous
 * regions, municipalities and special administrative regions (at their capitals), major Chinese cities
 * and a few world cities. Coordinates to about 0.01 degree (public knowledge; for finding a place on the
 * map, not for measuring). With a map key the map's own search is used instead.
 */
import type { LatLng } from './projection';

export interface Place extends LatLng {
  zh: string;
  en: string;
  kind: 'province' | 'city';
}

const P = (zh: string, en: string, lat: number, lng: number): Place => ({ zh, en, lat, lng, kind: 'province' });
const C = (zh: string, en: string, lat: number, lng: number): Place => ({ zh, en, lat, lng, kind: 'city' });

export const PLACES: Place[] = [
  P('北京市', 'Beijing', 39.9042, 116.4074),
  P('天津市', 'Tianjin', 39.3434, 117.3616),
  P('上海市', 'Shanghai', 31.2304, 121.4737),
  P('重庆市', 'Chongqing', 29.563, 106.5516),
  P('河北省', 'Hebei', 38.0428, 114.5149),
  P('山西省', 'Shanxi', 37.8706, 112.5489),
  P('内蒙古自治区', 'Inner Mongolia', 40.8414, 111.7519),
  P('辽宁省', 'Liaoning', 41.8057, 123.4315),
  P('吉林省', 'Jilin', 43.8171, 125.3235),
  P('黑龙江省', 'Heilongjiang', 45.8038, 126.5349),
  P('江苏省', 'Jiangsu', 32.0603, 118.7969),
  P('浙江省', 'Zhejiang', 30.2741, 120.1551),
  P('安徽省', 'Anhui', 31.8206, 117.2272),
  P('福建省', 'Fujian', 26.0745, 119.2965),
  P('江西省', 'Jiangxi', 28.682, 115.8579),
  P('山东省', 'Shandong', 36.6512, 117.1201),
  P('河南省', 'Henan', 34.7466, 113.6254),
  P('湖北省', 'Hubei', 30.5928, 114.3055),
  P('湖南省', 'Hunan', 28.2282, 112.9388),
  P('广东省', 'Guangdong', 23.1291, 113.2644),
  P('广西壮族自治区', 'Guangxi', 22.817, 108.3665),
  P('海南省', 'Hainan', 20.044, 110.1999),
  P('四川省', 'Sichuan', 30.5728, 104.0668),
  P('贵州省', 'Guizhou', 26.647, 106.6302),
  P('云南省', 'Yunnan', 25.0389, 102.7183),
  P('西藏自治区', 'Tibet', 29.65, 91.1),
  P('陕西省', 'Shaanxi', 34.3416, 108.9398),
  P('甘肃省', 'Gansu', 36.0611, 103.8343),
  P('青海省', 'Qinghai', 36.6171, 101.7782),
  P('宁夏回族自治区', 'Ningxia', 38.4872, 106.2309),
  P('新疆维吾尔自治区', 'Xinjiang', 43.8256, 87.6168),
  P('香港特别行政区', 'Hong Kong', 22.3193, 114.1694),
  P('澳门特别行政区', 'Macau', 22.1987, 113.5439),
  P('台湾省', 'Taiwan', 25.033, 121.5654),
  C('石家庄', 'Shijiazhuang', 38.0428, 114.5149),
  C('太原', 'Taiyuan', 37.8706, 112.5489),
  C('呼和浩特', 'Hohhot', 40.8414, 111.7519),
  C('沈阳', 'Shenyang', 41.8057, 123.4315),
  C('大连', 'Dalian', 38.914, 121.6147),
  C('长春', 'Changchun', 43.8171, 125.3235),
  C('哈尔滨', 'Harbin', 45.8038, 126.5349),
  C('南京', 'Nanjing', 32.0603, 118.7969),
  C('苏州', 'Suzhou', 31.2989, 120.5853),
  C('无锡', 'Wuxi', 31.4912, 120.3119),
  C('常州', 'Changzhou', 31.8107, 119.974),
  C('南通', 'Nantong', 31.9802, 120.8943),
  C('杭州', 'Hangzhou', 30.2741, 120.1551),
  C('宁波', 'Ningbo', 29.8683, 121.544),
  C('温州', 'Wenzhou', 27.9943, 120.6994),
  C('嘉兴', 'Jiaxing', 30.746, 120.7555),
  C('合肥', 'Hefei', 31.8206, 117.2272),
  C('福州', 'Fuzhou', 26.0745, 119.2965),
  C('厦门', 'Xiamen', 24.4798, 118.0894),
  C('南昌', 'Nanchang', 28.682, 115.8579),
  C('济南', 'Jinan', 36.6512, 117.1201),
  C('青岛', 'Qingdao', 36.0671, 120.3826),
  C('郑州', 'Zhengzhou', 34.7466, 113.6254),
  C('武汉', 'Wuhan', 30.5928, 114.3055),
  C('长沙', 'Changsha', 28.2282, 112.9388),
  C('广州', 'Guangzhou', 23.1291, 113.2644),
  C('深圳', 'Shenzhen', 22.5431, 114.0579),
  C('东莞', 'Dongguan', 23.0207, 113.7518),
  C('佛山', 'Foshan', 23.0215, 113.1214),
  C('珠海', 'Zhuhai', 22.271, 113.5767),
  C('南宁', 'Nanning', 22.817, 108.3665),
  C('海口', 'Haikou', 20.044, 110.1999),
  C('三亚', 'Sanya', 18.2528, 109.5119),
  C('成都', 'Chengdu', 30.5728, 104.0668),
  C('贵阳', 'Guiyang', 26.647, 106.6302),
  C('昆明', 'Kunming', 25.0389, 102.7183),
  C('拉萨', 'Lhasa', 29.65, 91.1),
  C('西安', "Xi'an", 34.3416, 108.9398),
  C('兰州', 'Lanzhou', 36.0611, 103.8343),
  C('西宁', 'Xining', 36.6171, 101.7782),
  C('银川', 'Yinchuan', 38.4872, 106.2309),
  C('乌鲁木齐', 'Urumqi', 43.8256, 87.6168),
  C('台北', 'Taipei', 25.033, 121.5654),
  C('香港', 'Hong Kong', 22.3193, 114.1694),
  C('澳门', 'Macau', 22.1987, 113.5439),
  C('东京', 'Tokyo', 35.6762, 139.6503),
  C('首尔', 'Seoul', 37.5665, 126.978),
  C('新加坡', 'Singapore', 1.3521, 103.8198),
  C('曼谷', 'Bangkok', 13.7563, 100.5018),
  C('吉隆坡', 'Kuala Lumpur', 3.139, 101.6869),
  C('雅加达', 'Jakarta', -6.2088, 106.8456),
  C('河内', 'Hanoi', 21.0278, 105.8342),
  C('胡志明市', 'Ho Chi Minh City', 10.8231, 106.6297),
  C('马尼拉', 'Manila', 14.5995, 120.9842),
  C('新德里', 'New Delhi', 28.6139, 77.209),
  C('迪拜', 'Dubai', 25.2048, 55.2708),
  C('莫斯科', 'Moscow', 55.7558, 37.6173),
  C('伦敦', 'London', 51.5074, -0.1278),
  C('巴黎', 'Paris', 48.8566, 2.3522),
  C('法兰克福', 'Frankfurt', 50.1109, 8.6821),
  C('鹿特丹', 'Rotterdam', 51.9244, 4.4777),
  C('纽约', 'New York', 40.7128, -74.006),
  C('洛杉矶', 'Los Angeles', 34.0522, -118.2437),
  C('悉尼', 'Sydney', -33.8688, 151.2093),
  C('圣保罗', 'São Paulo', -23.5505, -46.6333),
];

/** Places whose Chinese or English name contains `query` (case and spaces ignored), names that start
 * with it first, provinces before cities. */
export function searchPlaces(query: string, limit = 10): Place[] {
  const wanted = query.replace(/\s+/g, '').toLowerCase();
  if (!wanted) return [];
  const key = (place: Place) => [place.zh, place.en.replace(/\s+/g, '').toLowerCase()];
  return PLACES.filter((place) => key(place).some((name) => name.includes(wanted)))
    .map((place) => ({ place, starts: key(place).some((name) => name.startsWith(wanted)) }))
    .sort(
      (a, b) =>
        Number(b.starts) - Number(a.starts) ||
        Number(a.place.kind !== 'province') - Number(b.place.kind !== 'province'),
    )
    .slice(0, limit)
    .map(({ place }) => place);
}
