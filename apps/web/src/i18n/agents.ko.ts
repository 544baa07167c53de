import type { agentsEn } from './agents.en';

/** Korean strings of load agents; the keys are those of agents.en.ts. */
export const agentsKo: Record<keyof typeof agentsEn, string> = {
  'agents.runTitle': '에이전트',
  'agents.runText': '이 테스트를 나누어 실행한 머신들과 각 머신의 사용자 수, 처리량입니다.',
  'agents.name': '에이전트',
  'agents.host': '호스트',
  'agents.users': '사용자',
  'agents.status': '상태',
  'agents.requests': '요청 수',
  'agents.rps': '초당 요청',
  'agents.status.waiting': '대기 중',
  'agents.status.running': '실행 중',
  'agents.status.done': '완료',
  'agents.status.lost': '연결 끊김',
  'agents.status.failed': '실패',
  'agents.partial':
    '부분 결과: {names}이(가) 끝나기 전에 멈췄습니다. 수치는 다른 에이전트가 측정한 모든 요청과, 멈춘 에이전트가 보고를 멈추기 전까지 보낸 요청을 포함합니다.',
  'agents.placementLabel': '실행 위치',
  'agents.placementServer': '이 서버',
  'agents.placementAgents': '에이전트 {n}대',
  'agents.placementOneAgent': '에이전트 1대',
  'agents.placementHint': '온라인이며 유휴 상태인 에이전트: {online}대',
  'agents.listTitle': '부하 에이전트',
  'agents.listText':
    '다른 머신에서 aqa agent를 실행하면 더 많은 부하를 만들 수 있습니다. 테스트마다 사용할 에이전트 수를 고르면 서버가 결과를 정확히 합칩니다.',
  'agents.startTitle': '에이전트 시작',
  'agents.startHint':
    '이 서버에 접속할 수 있고 Node.js 20이 있는 머신에서 머신마다 한 번 실행하세요 (서버의 다른 것은 필요 없습니다). 범위가 "부하 에이전트"인 API 토큰을 쓰세요: 이 토큰은 에이전트 실행만 할 수 있습니다.',
  'agents.tokenLink': '에이전트 토큰 만들기',
  'agents.none': '아직 토큰으로 등록된 에이전트가 없습니다.',
  'agents.online': '온라인',
  'agents.idle': '유휴',
  'agents.busy': '샤드 실행 중',
  'agents.offline': '오프라인',
  'agents.cores': '코어 {n}개',
  'agents.oneCore': '코어 1개',
  'agents.lastSeen': '마지막 확인 {time}',
  'agents.unavailable': '이 서버는 Redis(REDIS_URL) 없이 실행 중이어서 부하 에이전트를 사용할 수 없습니다.',
  'agents.loading': '에이전트 목록을 불러오는 중...',
  'agents.loadFailed': '에이전트 목록을 불러오지 못했습니다',
};
