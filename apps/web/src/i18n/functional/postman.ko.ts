import type { functionalPostmanEn } from './postman.en';

/** Korean strings of a Postman collection's parts in the API editor; a missing or unknown key is a compile error. */
export const functionalPostmanKo: Record<keyof typeof functionalPostmanEn, string> = {
  'functional.postman.importedTests': '{tests}: {rules}, {scripts}, 제외 {left}개',
  'functional.postman.count.tests': '테스트 {count}개',
  'functional.postman.count.testsOne': '테스트 1개',
  'functional.postman.count.rules': '규칙 {count}개',
  'functional.postman.count.rulesOne': '규칙 1개',
  'functional.postman.count.scripts': '스크립트 {count}개',
  'functional.postman.count.scriptsOne': '스크립트 1개',
  'functional.postman.summaryTitle': '{file}의 Postman 테스트',
  'functional.postman.summaryText':
    '규칙: 검증 규칙으로 읽힌 테스트로, 테스트 이름 그대로 각 API에 있습니다. 스크립트: Newman처럼 작성된 그대로 실행되는 테스트입니다(각 API와 위 컬렉션의 스크립트). 제외: 실행할 수 없는 테스트입니다.',
  'functional.postman.noRulesScripts':
    '규칙 없음: Postman 테스트 스크립트가 호출을 판정하며, Newman처럼 상태 코드 검사를 더하지 않습니다.',
  'functional.postman.noRulesAnswered':
    '규칙 없음: 상태와 관계없이 응답만 있으면 통과합니다 (이 플랜은 Newman처럼 상태 200 기본 규칙을 쓰지 않습니다).',
  'functional.postman.leftOut': '제외된 테스트: {list}',
  'functional.postman.leftOutItem': '{request} {line}행 ({reason})',
  'functional.postman.filesAttached': '컬렉션에 설정했습니다: {files}',
  'functional.postman.title': '변수와 데이터',
  'functional.postman.text':
    '모든 API가 {{name}}으로 쓰는 값입니다. 환경이 컬렉션 변수보다, 컬렉션 변수가 전역 변수보다 우선합니다. 데이터 파일은 Newman -d처럼 행마다 반복을 한 번 실행합니다.',
  'functional.postman.scope.variables': '컬렉션 변수',
  'functional.postman.scope.environment': '환경',
  'functional.postman.scope.globals': '전역 변수',
  'functional.postman.variable.name': '이름',
  'functional.postman.variable.value': '값',
  'functional.postman.noVariables': '아직 없습니다.',
  'functional.postman.addVariable': '변수 추가',
  'functional.postman.removeVariable': '{scope} 변수 {number} 삭제',
  'functional.postman.addEnvironment': '환경 추가',
  'functional.postman.addGlobals': '전역 변수 추가',
  'functional.postman.environmentName': '환경 이름',
  'functional.postman.removeEnvironment': '환경 삭제',
  'functional.postman.dataTitle': '데이터 파일',
  'functional.postman.dataText':
    '머리글 줄이 있는 CSV 또는 객체의 JSON 배열: 각 행이 반복 한 번이고, 열이 {{variables}}입니다.',
  'functional.postman.dataRows': '{count}행, 행마다 반복 한 번',
  'functional.postman.attachData': '데이터 파일 첨부',
  'functional.postman.replaceData': '데이터 파일 바꾸기',
  'functional.postman.removeData': '데이터 파일 {file} 삭제',
  'functional.postman.dataTooLarge': '{file}은(는) 데이터 파일의 최대 크기인 5 MB보다 큽니다',
  'functional.postman.cookieJar': '사용자별로 쿠키 유지 (Newman처럼 쿠키 저장소 사용)',
  'functional.postman.followRedirects': '리디렉션 따라가기 (끄면 3xx 응답을 판정)',
  'functional.postman.defaultStatusRule':
    '규칙이나 테스트가 없는 API는 상태 200으로 판정 (끄면 Newman처럼 응답만 있으면 통과)',
  'functional.postman.scriptsTitle': '스크립트',
  'functional.postman.scriptsText':
    '규칙이나 캡처가 되지 않은 Postman 스크립트입니다. 네트워크와 파일 없이(pm.sendRequest만 허용) 샌드박스에서 작성된 그대로 실행됩니다.',
  'functional.postman.scriptLabel': '{origin}의 {event} 스크립트',
  'functional.postman.removeScript': '{label} 삭제',
  'functional.postman.event.prerequest': '사전 요청',
  'functional.postman.event.test': '테스트',
  'functional.postman.folder': '폴더: {folder}',
  'functional.postman.origin.collection': '컬렉션',
  'functional.postman.origin.request': '요청',
  'functional.postman.origin.folder': '폴더 {name}',
};
