/**
 * A general vocabulary of the domains tools serve: for each domain, words that signal it. The
 * resolver tags queries and power documents with the domains their words signal, so "rain
 * tomorrow" meets a power described as "meteorological forecasts". Written from general
 * knowledge of tool and MCP server categories, never from benchmark queries; extend it with
 * whole domains, not with words for one query. It names no product, brand or place (those belong
 * in a power's own description and keywords) and has no domain that only one kind of server
 * serves: a vocabulary shaped like one catalog helps only that catalog.
 */
export const DOMAINS: Record<string, string> = {
  files:
    'file files folder folders directory directories path filesystem document documents disk upload download attachment',
  code:
    'code coding source program programming compile compiler debug debugging bug refactor repository ' +
    'repo commit branch merge pull git lint snippet syntax developer ide',
  web:
    'web website websites webpage page pages url urls link links browser browse browsing html http https ' +
    'site sites domain crawl crawler scrape scraping internet online',
  search: 'search searching query queries results engine index retrieve retrieval',
  data:
    'data dataset datasets database databases table tables sql query csv spreadsheet spreadsheets ' +
    'records rows columns schema analytics statistics metrics',
  math:
    'math mathematics mathematical calculate calculation calculator compute computation arithmetic ' +
    'equation equations algebra formula formulas sum average mean median variance deviation percentage ' +
    'percent statistics statistical integral derivative matrix probability',
  docs: 'documentation docs manual guide guides reference api apis readme tutorial library libraries sdk',
  security:
    'security secure vulnerability vulnerabilities exploit malware phishing threat threats attack breach ' +
    'password passwords encryption certificate certificates scan audit osint intelligence reconnaissance ' +
    'whois dns subdomain subdomains forensics',
  memory: 'memory remember recall knowledge graph notes note entity entities facts fact journal',
  test: 'test tests testing integration assertion coverage qa validate validation',
  weather:
    'weather forecast forecasts temperature rain raining snow wind humidity storm climate meteorological sunny cloudy precipitation',
  maps:
    'map maps location locations directions route routes routing distance nearby navigation geocode ' +
    'geocoding latitude longitude travel commute drive driving walk walking bike cycling transit',
  time: 'time times timezone timezones date dates clock calendar schedule scheduling day days week month year hour hours minute deadline',
  finance:
    'finance financial stock stocks market markets price prices trading trade invest investing ' +
    'investment portfolio shares dividend earnings revenue bank banking currency exchange forex loan ' +
    'interest tax taxes budget accounting invoice payment payments',
  crypto:
    'crypto cryptocurrency cryptocurrencies token tokens blockchain defi wallet coin coins nft swap liquidity staking',
  news: 'news headline headlines article articles journalism breaking press events',
  health:
    'health medical medicine medication drug drugs disease diseases symptom symptoms diagnosis clinical ' +
    'clinic patient patients doctor hospital treatment therapy condition conditions dose dosage',
  science:
    'science scientific research biology chemistry physics gene genes genome protein molecule experiment laboratory',
  academic:
    'paper papers academic research publication publications journal citation citations scholar ' +
    'scholarly conference thesis study studies literature bibliography',
  space:
    'space astronomy astronomical planet planets star stars satellite rocket mission missions orbit telescope asteroid',
  food:
    'food recipe recipes cooking cook meal meals ingredient ingredients nutrition nutritional diet ' +
    'dietary calorie calories restaurant restaurants dish dishes vegetable',
  travel:
    'travel trip trips flight flights hotel hotels booking vacation itinerary tourism tourist destination airline airport visa tour tours',
  shopping: 'shopping shop store stores product products buy buying purchase cart discount ecommerce retail brand',
  media: 'movie movies film films tv series music song songs album artist video videos podcast streaming actor actress',
  image:
    'image images picture pictures photo photos drawing draw illustration graphic graphics icon icons ' +
    'logo svg png render diagram chart charts visualization',
  games: 'game games gaming player players game console',
  social: 'social post posts community communities forum comment comments discussion thread followers',
  communication:
    'email emails mail inbox message messages chat send reply notification notifications sms contact contacts',
  productivity:
    'task tasks todo project projects ticket tickets issue issues board workflow meeting meetings reminder reminders plan planning',
  language:
    'translate translation translator language languages grammar spelling vocabulary dictionary word ' +
    'words definition synonym pronunciation',
  writing:
    'write writing text essay essays summarize summary summaries content copy blog draft edit editing rewrite proofread',
  education:
    'learn learning education course courses lesson lessons teach teaching student students school tutor quiz study',
  jobs: 'job jobs career careers resume hiring recruit recruiting candidate candidates employer interview salary talent',
  realestate:
    'house houses home homes rent rental apartment apartments property properties real estate mortgage landlord',
  automotive: 'car cars vehicle vehicles automobile automotive truck mileage dealer',
  ai: 'ai model models machine learning ml neural network dataset datasets training inference llm embedding transformer',
  cloud: 'cloud deploy deployment container containers cluster infrastructure serverless',
  devops:
    'ci cd pipeline pipelines build builds log logs monitoring metrics alert alerts incident uptime observability',
  system: 'system package packages install installation configuration config os shell command terminal',
  units:
    'unit units convert conversion conversions measurement measurements meter meters kilogram pound ' +
    'pounds mile miles celsius fahrenheit inch inches liter',
  art: 'art artwork artworks painting paintings gallery galleries artist artists sculpture exhibition collection',
  sports:
    'sport sports team teams match matches score scores league football soccer basketball baseball tennis player athlete',
  legal: 'law legal contract contracts court regulation regulations compliance policy policies license',
  knowledge: 'encyclopedia wiki fact facts history historical biography definition overview explain',
};
