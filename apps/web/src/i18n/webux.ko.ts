import type { webuxEn } from './webux.en';

/** Korean strings of issue #24's screen fixes; the keys of `webux.en.ts`. */
export const webuxKo: Record<keyof typeof webuxEn, string> = {
  'leave.question':
    '저장하지 않은 변경 사항이 있습니다. 이 페이지를 떠나면 변경 사항이 사라집니다. 떠나시겠습니까?',
  'leave.leave': '떠나기',

  'conflict.title': '이 플랜을 연 뒤에 다른 곳에서 변경되었습니다',
  'conflict.text':
    '그 사이에 다른 탭이나 텍스트 명령으로 저장되었습니다. 상대 변경 불러오기는 내 변경을 버리고, 내 변경으로 덮어쓰기는 내 변경을 그 위에 저장하며, 계속 편집은 아무것도 저장하지 않습니다.',
  'conflict.reload': '상대 변경 불러오기',
  'conflict.overwrite': '내 변경으로 덮어쓰기',
  'conflict.keep': '계속 편집',
  'conflict.reloaded': '저장된 플랜을 불러왔습니다. 내 변경은 버려졌습니다.',

  'results.phase.loading': '불러오는 중',
  'results.loading': '결과를 불러오는 중...',
  'stop.question':
    '이 테스트를 중지할까요? 지금 종료되며 지금까지 측정한 결과는 남습니다. 다시 이어서 실행할 수는 없습니다.',
  'url.noScheme': '이 URL에는 http:// 또는 https://가 없습니다.',
  'url.useHttps': '{url} 사용',
  'limit.tooLong': '{field}은(는) 최대 {max}자까지 입력할 수 있습니다',
  'limit.field.body': '본문',
  'limit.field.script': '스크립트',
  'limit.field.scriptContent': '스크립트 내용',
  'limit.field.curl': 'curl 명령',
  'results.apiHost': '호스트: {host}',
  'functional.result.notRun': '실행 안 됨',
  'functional.result.notRunText': '이 실행에서 이 API는 호출되지 않아 측정하거나 검사한 것이 없습니다.',
  'functional.result.ruleNotRun': '실행 안 됨',
};
