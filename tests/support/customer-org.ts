import { apiSessionCookie, postOk } from './server';

/**
 * A customer's own organisation with data of realistic length (issue 41): long Russian names of
 * structures, workplaces and operations, employees with patronymics, 16 and more rows in every
 * list. Seeded through the API as the customer's admin would, on a running server beside the demo.
 */
export interface CustomerOrg {
  login: string;
  password: string;
  /** The area with everything in it (staff, shifts, operations, markups). */
  areaId: number;
  areaName: string;
  /** The first employee of the area (for the statement's address). */
  employeeId: number;
  /** The window the markups lie in (UTC). */
  from: string;
  to: string;
  /** The customer's screens with its data in them, as hash routes. */
  routes: string[];
}

const WORKSHOPS = [
  'Цех механической обработки корпусных деталей № 3 (участок ЧПУ)',
  'Цех сборки и испытаний редукторов тяговых электродвигателей',
  'Участок термической обработки и химико-термического упрочнения',
  'Инструментальное производство и участок ремонта технологической оснастки',
];

const AREAS = [
  'Участок токарной обработки валов-шестерён на станках с ЧПУ',
  'Участок фрезерной обработки корпусов редукторов (обрабатывающие центры)',
  'Участок контроля геометрии и шероховатости после окончательной обработки',
  'Участок комплектования и консервации готовых изделий перед отгрузкой',
];

const EMPLOYEES = [
  'Константинопольский Александр Вячеславович',
  'Христорождественская Валентина Святославовна',
  'Зауральский-Новосельцев Пётр Константинович',
  'Абдурахмангаджиева Гульнара Магомедрасуловна',
  'Преображенский Владислав Александрович',
  'Добровольская-Остроумова Екатерина Леонидовна',
  'Воскресенский Ярослав Станиславович',
  'Шереметьева Анастасия Владимировна',
  'Благовещенский Вениамин Феоктистович',
  'Голенищева-Кутузова Елизавета Аркадьевна',
  'Краснопевцев Мстислав Всеволодович',
  'Никифорова-Трубецкая Маргарита Ростиславовна',
  'Белозерский Аристарх Емельянович',
  'Подмосковная Людмила Анатольевна',
  'Сергиево-Посадский Игнатий Филиппович',
  'Ермолаева Антонина Вячеславовна',
  'Мухаметшарипов Ильдар Ринатович',
  'Семидесятникова Зинаида Порфирьевна',
];

const WORKPLACES = Array.from({ length: 17 }, (_, i) =>
  i % 2 === 0
    ? `Обрабатывающий центр DMG MORI DMU 50 № ${i + 1} (пятикоординатный, участок ЧПУ)`
    : `Верстак слесаря-сборщика с пневмоинструментом и поворотным столом № ${i + 1}`,
);

/** Three operations of 60–80 characters for each operation type (all seven of them). */
const OPERATION_NAMES = [
  'Установка заготовки корпуса редуктора в приспособление и выверка по базам',
  'Черновое фрезерование плоскости разъёма корпуса торцевой фрезой диаметром 125',
  'Сверление и нарезание резьбы в отверстиях крепления крышки подшипника М12',
];

/** One shift of four breaks (the break rows of the shift editor). */
const shift = (name: string, start: number) => {
  const at = (hour: number, minute = 0) => `${String((start + hour) % 24).padStart(2, '0')}:${String(minute).padStart(2, '0')}`;
  return {
    name,
    start_time: at(0),
    end_time: at(8),
    regular_break_duration_min: 0,
    breaks: [
      { start_time: at(1, 30), end_time: at(1, 40) },
      { start_time: at(3, 0), end_time: at(3, 30) },
      { start_time: at(5, 0), end_time: at(5, 15) },
      { start_time: at(6, 45), end_time: at(6, 55) },
    ],
  };
};

/** Registers the customer's admin on the running server and fills its organisation (above). */
export async function seedCustomerOrg(baseUrl: string): Promise<CustomerOrg> {
  const login = 'glavny-tekhnolog';
  const password = 'customer-pass-1';
  await postOk(baseUrl, '/api/v2/register', { login, password, first_name: 'Вячеслав', last_name: 'Новосельцев-Преображенский' });
  const cookie = await apiSessionCookie(baseUrl, login, password);
  const post = (path: string, body: unknown) => postOk(baseUrl, path, body, cookie);
  const send = async (method: string, path: string, body: unknown) => {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { 'content-type': 'application/json', origin: baseUrl, cookie },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
    return response.json();
  };
  const get = async <T>(path: string): Promise<T> => {
    const response = await fetch(`${baseUrl}${path}`, { headers: { cookie } });
    if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
    return (await response.json()) as T;
  };

  // Structures: the plant, four workshops, four areas in each (21 rows).
  const plant = (await post('/api/v1/admin/structures', {
    name: 'Акционерное общество «Уральский завод транспортного машиностроения»',
  })) as { id: number };
  let areaId = 0;
  for (const [w, workshop] of WORKSHOPS.entries()) {
    const { id } = (await post('/api/v1/admin/structures', { name: workshop, parent_id: plant.id })) as { id: number };
    for (const area of AREAS) {
      const created = (await post('/api/v1/admin/structures', { name: `${area} — цех ${w + 1}`, parent_id: id })) as { id: number };
      areaId ||= created.id;
    }
  }

  // The first area's staff, workplaces, cameras, shifts and operations.
  const employees: number[] = [];
  for (const name of EMPLOYEES) employees.push(((await post('/api/v1/admin/employees', { structure_id: areaId, name })) as { id: number }).id);
  const workplaces: number[] = [];
  for (const name of WORKPLACES) workplaces.push(((await post('/api/v1/admin/workplaces', { structure_id: areaId, name })) as { id: number }).id);
  for (let key = 1; key <= 4; key++) {
    await post('/api/v1/admin/cameras', {
      structure_id: areaId,
      camera_key: key,
      name: `Камера ${key}: обзор обрабатывающих центров с северной галереи цеха`,
      storage_folder: `recordings/ural-zavod/ceh-3/uchastok-chpu/camera-${key}`,
    });
  }
  await send('PUT', `/api/v1/structure/${areaId}`, {
    employee_count: 18,
    employee_salary: 95_000,
    shifts: [
      shift('Первая смена (дневная, основной состав)', 6),
      shift('Вторая смена (вечерняя, основной состав)', 14),
      shift('Третья смена (ночная, дежурный персонал)', 22),
      shift('Сокращённая смена выходного дня', 8),
    ],
  });
  const types = Object.keys((await get<{ operation_types: Record<string, string> }>(`/api/v1/operations?structure_id=${areaId}`)).operation_types);
  await post('/api/v1/operations', {
    structure_id: areaId,
    changed_operations: types.flatMap((type, t) =>
      OPERATION_NAMES.map((name, i) => ({
        name: `${name} (${t + 1}.${i + 1})`,
        type,
        reference_point: 'Начало — касание заготовки рукой; конец — нажатие кнопки «Пуск» на пульте станка',
      })),
    ),
  });
  for (let i = 1; i <= 16; i++) {
    await post('/api/v1/admin/users', {
      login: `normirovshchik-${String(i).padStart(2, '0')}`,
      first_name: EMPLOYEES[i]!.split(' ')[1],
      last_name: EMPLOYEES[i]!.split(' ')[0],
      password,
      role: i % 3 === 0 ? 'analyst' : 'assessor',
    });
  }

  // 24 markups of the first morning hours (Moscow 09:00–11:00), long comments among them.
  const from = '2026-11-20T06:00:00.000Z';
  const to = '2026-11-20T15:00:00.000Z';
  const window = `structure_id=${areaId}&from_time=${from}&to_time=${to}`;
  const operations = (await get<{ operations: { id: number }[] }>(`/api/v1/operations?structure_id=${areaId}`)).operations;
  const { version } = await get<{ version: string }>(`/api/v1/operation_markups?${window}`);
  const start = Date.parse(from);
  await post(`/api/v1/operation_markups?${window}`, {
    base_version: version,
    operation_markups: Array.from({ length: 24 }, (_, i) => ({
      operation_id: operations[i % operations.length]!.id,
      workplace_id: workplaces[i % workplaces.length]!,
      employee_id: employees[i % employees.length]!,
      start_time: new Date(start + i * 300_000).toISOString(),
      end_time: new Date(start + (i + 1) * 300_000 - 20_000).toISOString(),
      comment: i % 3 === 0 ? 'Заготовка поступила с задержкой: ожидание крана-балки и стропальщика со смежного участка' : null,
    })),
  });

  const employeeId = employees[0]!;
  return {
    login,
    password,
    areaId,
    areaName: `${AREAS[0]} — цех 1`,
    employeeId,
    from,
    to,
    routes: [
      '/projects',
      `/projects/${areaId}`,
      '/admin',
      '/summary',
      `/markup/${areaId}`,
      `/edit/${areaId}/${from}/${to}`,
      `/report/${areaId}/${from}/${to}`,
      `/statement/${areaId}/${employeeId}/${from}/${to}`,
      `/interactive/${areaId}/${from}/${to}`,
      `/norms/${areaId}`,
      `/models-stands/${areaId}`,
      '/multi-video',
    ],
  };
}
