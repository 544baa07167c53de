import type { downloadEn } from './download.en';

/** Korean strings of the Download App screen; the same keys as download.en.ts. */
export const downloadKo: Record<keyof typeof downloadEn, string> = {
  'download.title': '앱 다운로드',
  'download.description':
    'aqa 명령줄 도구는 저장한 플랜을 터미널이나 CI 작업에서 이 서버로 실행하고, 진행 상황을 실시간으로 보여 주며, 임계값이나 검증이 실패하면 빌드를 실패시킵니다.',
  'download.cliTitle': 'aqa 명령줄 도구',
  'download.cliText':
    '파일 하나, aqa.mjs입니다. Node.js 20 이상만 있으면 됩니다. 설치할 것도, 패키지도 없습니다.',
  'download.button': 'aqa.mjs 다운로드',
  'download.helpHint': '그다음 {command} 명령으로 모든 옵션을 볼 수 있습니다.',
  'download.exitTitle': '종료 코드',
  'download.exit0': '모든 임계값을 지켰고 모든 호출이 통과했습니다',
  'download.exit1': '임계값이나 검증이 실패했습니다',
  'download.exit2':
    '테스트를 실행할 수 없었습니다: 서버에 연결할 수 없거나, 토큰이 거부되었거나, 플랜을 찾을 수 없습니다(각각 문장으로 알려 줍니다)',
  'download.planTitle': '플랜',
  'download.planLabel': '저장된 플랜',
  'download.planHint':
    '플랜 ID가 아래 명령에 채워집니다. 성능 플랜은 aqa run, 기능 플랜은 aqa test로 시작합니다.',
  'download.planGroupPerformance': '성능 플랜',
  'download.planGroupFunctional': '기능 플랜',
  'download.noPlans':
    '저장된 플랜이 아직 없습니다. 플랜을 저장하면 그 ID가 명령에 채워집니다. 그전까지는 PLAN_ID로 표시됩니다.',
  'download.plansFailed': '플랜을 불러오지 못했습니다',
  'download.loadingPlans': '플랜을 불러오는 중...',
  'download.tokenTitle': 'API 토큰',
  'download.tokenText':
    '명령은 AQA_TOKEN에서 토큰을 읽으므로 토큰이 명령줄에 남지 않습니다. 설정에서 토큰을 만든 뒤 CI 비밀 값으로 보관하세요.',
  'download.tokenLink': 'API 토큰 만들기',
  'download.commandsTitle': '명령',
  'download.terminal': '터미널',
  'download.terminalHint': '토큰을 화면에 보이지 않게 입력받고, aqa를 내려받아 플랜을 실행합니다.',
  'download.github': 'GitHub Actions',
  'download.githubHint':
    '.github/workflows/aqa.yml로 저장하고, Settings → Secrets and variables → Actions에 AQA_TOKEN을 추가하세요.',
  'download.gitlab': 'GitLab CI',
  'download.gitlabHint':
    '.gitlab-ci.yml에 추가하고, Settings → CI/CD → Variables에 AQA_TOKEN을 마스킹된 변수로 추가하세요.',
  'download.copy': '복사',
  'download.copyLabel': '{what} 명령 복사',
  'download.copied': '클립보드에 복사했습니다',
  'download.copyFailed': '복사하지 못했습니다. 텍스트를 선택해 직접 복사하세요.',
};
