import type { flowsEn } from './flows.en';

/** Korean strings of flows.en.ts. */
export const flowsKo: Record<keyof typeof flowsEn, string> = {
  'flows.title': '플로',
  'flows.text':
    '가상 사용자의 각 반복은 플로 하나의 호출을 차례로 실행하며, 플로는 가중치에 비례해 고릅니다. 이때 모든 호출은 자기 플로를 지정합니다.',
  'flows.name': '플로 이름',
  'flows.weight': '가중치',
  'flows.weightHint': '1~1000. 가중치 70인 플로와 30인 플로가 있으면 앞의 것이 반복의 70 %를 실행합니다',
  'flows.share': '반복의 {share} %',
  'flows.add': '플로 추가',
  'flows.addNamed': '호출이 지정한 플로 추가: {names}',
  'flows.remove': '플로 {name} 삭제',
  'flows.unnamed': '(이름 없음)',
  'flows.scriptsNote':
    '내장 엔진과 생성된 JMeter·K6·Locust 스크립트는 플로를 실행합니다. Taurus, SoapUI 스크립트는 아직 플로를 담지 않으며 경고로 알려 줍니다. 플로가 있는 플랜은 부하 에이전트가 아닌 이 서버에서 실행합니다.',
  'flows.entryFlow': '플로',
  'flows.entryFlowHint': '선택: 이 호출이 속한 플로',
  'flows.error.weight': '플로의 가중치는 1부터 {max}까지의 정수입니다',
  'flows.resultIterations': '플로 {name}의 반복',
  'flows.resultShare': '{count} ({share} %)',
  'flows.results.title': '플로별 결과',
  'flows.results.text':
    '플로마다 반복 수와 비율, 그리고 그 호출들의 요청 수와 응답 시간을 실행 전체에 걸쳐 합친 값',
  'flows.results.liveTitle': '플로별 실시간 수치',
  'flows.results.liveText': '반복 수와 요청 수는 지금까지의 합계, 응답 시간은 최근 1초 기준',
  'flows.results.flow': '플로',
  'flows.results.iterations': '반복',
  'flows.results.share': '비율',
  'flows.results.requests': '요청',
  'flows.results.failed': '실패',
  'flows.results.errorRate': '오류율',
  'flows.results.avg': '평균',
  'flows.results.p95': 'p95',
  'flows.results.p99': 'p99',
  'flows.compare.requests': '플로 {name}의 요청',
  'flows.compare.p95': '플로 {name}의 p95',
};
