import type { testDataEn } from './test-data.en';

/** Korean strings of test-data.en.ts. */
export const testDataKo: Record<keyof typeof testDataEn, string> = {
  'testData.title': '테스트 데이터',
  'testData.text':
    'CSV 파일을 첨부하세요. 반복마다 다음 행을 가져오며, 그 열은 URL, 헤더, 본문에서 {{variables}}처럼 변수로 씁니다. 첫 줄이 열 이름입니다. 모두 합쳐 최대 10MB입니다.',
  'testData.attach': 'CSV 첨부',
  'testData.rows': '{count}개 행',
  'testData.columns': '열: {names}',
  'testData.remove': '{name} 제거',
  'testData.share': '행 나누기',
  'testData.share.all': '각 행을 실행 전체에서 한 사용자에게',
  'testData.share.user': '모든 행을 각 사용자에게',
  'testData.loop': '끝나면 처음부터 다시',
  'testData.loopOff': '행이 끝나면 사용자가 멈추고, 결과에 그렇게 표시됩니다.',
  'testData.randomOrder': '섞은 순서',
  'testData.tooLarge':
    '{name}을(를) 첨부하지 않았습니다: 데이터 파일이 모두 합쳐 {size}MB가 되며, 플랜은 최대 10MB까지 받습니다.',
  'testData.tooMany': '{name}을(를) 첨부하지 않았습니다: 플랜은 데이터 파일을 최대 {max}개까지 받습니다.',
  'testData.readFailed': '{name}을(를) 읽을 수 없습니다: {message}',
};
