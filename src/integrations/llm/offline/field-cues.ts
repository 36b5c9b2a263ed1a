import type { Audience, Industry } from './vocabulary.ts';

/**
 * The wizard's sectors and audience segments in the words visitors use, English and Spanish, from
 * the policy (JUDGEMENT.md: "accounting is finance, a vet is healthcare, a SaaS or game studio is
 * technology, a charity or NGO is nonprofit"; law, construction, logistics, agriculture, photography
 * are `other`). The field models read them as class-tied features, so a sector word no training
 * message used still counts for its value.
 *
 * Entry syntax: `word` matches the folded word (and its plural), `stem*` any word that starts with
 * the stem, `two_words` (up to three) a phrase.
 */
export const SECTOR_WORDS: Record<Industry, string> = {
  technology:
    'saas software_company software_house empresa_de_software tech_company tech_startup empresa_de_tecnologia ' +
    'empresa_tecnologica it_company game_studio games_studio gaming_studio estudio_de_videojuegos videojuego* ' +
    'videogame* estudio_de_juegos devtools developer_tools cybersecurity ciberseguridad software_factory ' +
    'fabrica_de_software ' +
    'telecom* hosting_company data_company ai_startup startup_de_software app_company software_vendor',
  healthcare:
    'clinic* clinica* hospital* dental dentist* odontolog* consultorio* doctor* medic* physio* fisioterap* ' +
    'kinesiolog* psycholog* psicolog* therap* terap* pharmac* farmacia* vet vets veterinar* laborator* ' +
    'telemedicin* telehealth nursing_home residencia_de_ancianos geriatr* optic* optica* health salud ' +
    'healthcare sanitari* nutricion* nutrition* cardiolog* pediatr* dermatolog* patholog* patolog* ' +
    'telepatholog* telepatolog* radiolog*',
  finance:
    'bank banks banco bancos banking bancari* fintech* insur* asegurador* seguros insurtech* accounting ' +
    'accountan* contable* contador* contadores contabilidad bookkeep* gestoria* asesoria_fiscal tax_advis* ' +
    'credit_union cooperativa_de_ahorro mortgage* hipotec* broker* brokerage investment* inversiones ' +
    'lending prestamo* microfinanc* microcredit* wealth_management payment_institution financier* finance finanzas ' +
    'fondo_de_empleados cooperativa_de_credito caja_de_ahorro',
  education:
    'school* escuela* colegio* universit* universidad* academy academia* language_school escuela_de_idiomas ' +
    'tutor* tutoring clases_particulares teach teacher* profesor* kindergarten jardin_de_infantes preschool ' +
    'preescolar summer_camp campamento* course_platform cursos_online bootcamp* instituto* training_center ' +
    'capacitacion* e_learning elearning edtech* driving_school autoescuela* educa* ' +
    'school_district coding_camp code_camp coding_school preu preuniversitario jardin_infantil ' +
    'guarderia* nursery_school daycare formacion_online plataforma_de_formacion online_courses',
  retail:
    'shop shops tienda* store stores boutique* ecommerce e_commerce online_store tienda_online tienda_en_linea ' +
    'retail* retailer* minorista* clothing ropa fashion moda shoe* zapato* zapateria* jewel* joyeria* cosmetic* ' +
    'cosmetica* skincare bookshop bookstore libreria* toy toys juguete* jugueteria* supermarket* supermercado* ' +
    'grocer* almacen* minimarket* ferreteria* hardware_store pet_shop florist* floreria* floristeria* ' +
    'wine_shop vinoteca* sporting_goods articulos_deportivos electronics_store home_decor decoracion ' +
    'retail_chain outlet* brand marca_de_ropa marca_de_juguetes marca_de_decoracion merch* bakery panaderia*',
  manufacturing:
    'factory factories fabrica* manufactur* fabricante* plant planta planta_de_produccion production_line ' +
    'linea_de_produccion industrial* textil* textile* metalurg* metalwork* auto_parts autopartes valve* ' +
    'valvula* food_processing planta_de_alimentos packaging envases plastic* plastico* chemical* quimica* ' +
    'imprenta* printing_plant maker makers fabricamos producimos machining mecanizado',
  realEstate:
    'real_estate inmobiliari* bienes_raices estate_agency estate_agent* realtor* realty property_developer ' +
    'desarrolladora_inmobiliaria property_management administracion_de_propiedades proptech* lettings ' +
    'rental* arriendo* alquiler* condominio* condo condos landlord* propiedades properties brokerage_firm ' +
    'property_portal property_site portal_inmobiliario corredora_de_propiedades',
  hospitality:
    'restaurant* restaurante* restoran* cafe cafes cafeteria* coffee_shop coffee_chain bar bares pub pubs ' +
    'brewery cerveceria* taqueria* pizzeria* hotel* hostel* hostal* bed_and_breakfast guesthouse posada* ' +
    'resort* catering food_truck tour_operator agencia_de_viajes travel_agency turismo tourism glamping ' +
    'bistro* trattoria parrilla* heladeria* ice_cream sushi',
  nonprofit:
    'ngo ngos ong ongs charity charities nonprofit* non_profit sin_fines_de_lucro sin_animo_de_lucro ' +
    'fundacion* foundation food_bank banco_de_alimentos church iglesia* parish parroquia* ' +
    'asociacion_civil community_organisation community_organization 501_c_3 animal_shelter refugio* ' +
    'voluntari* volunteer*',
  other:
    'law_firm law_office law_practice lawyer* abogad* attorney* bufete* estudio_juridico notari* legal ' +
    'construction constructora* constructor* contractor* obra builders architect arquitecto arquitecta ' +
    'architecture_firm architecture_studio architecture_practice architectural_firm architectural_practice ' +
    'estudio_de_arquitectura despacho_de_arquitectura firma_de_arquitectura oficina_de_arquitectura ' +
    'logistic* logistica* transport* freight carga trucking fleet flota courier* mensajeria* ' +
    'agricultur* agricola* agro* agroexport* farm farms farmer* finca* campo granja* orchard* huerto* ' +
    'vineyard* vina vinedo* bodega ganader* cattle coop cooperativa_agricola farm_cooperative ' +
    'photograph* fotograf* marketing_agency agencia_de_marketing ad_agency recruitment reclutamiento ' +
    'recruiting consultancy consultora* engineering_consultancy mining minera* mineria energy energia ' +
    'solar gym gyms gimnasio* crossfit pilates yoga football_club club_de_futbol club_de_padel sports_club ' +
    'club pest_control limpieza cleaning_company security_company seguridad_privada ' +
    'wedding_planner eventos events_company salon peluqueria* barber* barberia* spa tattoo* tatuaje* ' +
    'funeral* funerari* removals moving_company mudanza* municipal* municipio* ayuntamiento* ' +
    'town_council city_council alcaldia* public_sector sector_publico vigilancia empresa_de_seguridad ' +
    'immigration_law aguacate* avocado* cacao*',
};

/** Words naming an audience segment. */
export const SEGMENT_WORDS: Record<Audience, string> = {
  b2b:
    'b2b businesses companies company empresas empresa pymes smes sme distributor* distribuidor* wholesal* ' +
    'mayorista* reseller* revendedor* contractor* agencies agencias brands marcas retailers minoristas ' +
    'corporate_clients clientes_empresa clientes_corporativos business_customers purchasing_managers ' +
    'jefes_de_compras procurement buyers compradores exportadores importers importadores ' +
    'government_agencies interior_designers farmers agricultores',
  b2c:
    'b2c consumer* consumidor* shoppers travellers travelers viajeros turistas tourists couples parejas ' +
    'women mujeres men hombres moms mums mamas dads papas parents padres families familias fans ' +
    'homeowners propietarios individuals particulares personas people gente public publico diners comensales',
  youngAudience:
    'kids kid children child ninos nino ninas chicos chicas teen teens teenagers adolescent* adolescentes ' +
    'jovenes youth young students student estudiantes alumnos alumnas gen_z college_students universitarios ' +
    'bebes babies toddlers',
  specializedProfessionals:
    'doctors medicos physicians nurses enfermeras enfermeros surgeons cirujanos clinicians site_managers ' +
    'residentes_de_obra engineers ingenieros technicians tecnicos lawyers abogados accountants contadores ' +
    'teachers profesores docentes pharmacists farmaceuticos researchers investigadores architects ' +
    'arquitectos pilots pilotos dentists odontologos professionals profesionales specialists especialistas ' +
    'field_technicians tecnicos_de_campo',
  generalAudience:
    'everyone everybody all_ages todas_las_edades de_todas_las_edades cualquier_persona cualquier_edad ' +
    'whole_family toda_la_familia general_public publico_general todo_publico todo_el_mundo all_audiences ' +
    'grandparents abuelos retirees jubilados',
};

/** Words before a segment word that make it the segment addressed ("for", "aimed at", "we sell to"). */
export const SEGMENT_BEFORE =
  'for para aimed targeting target dirigido dirigida dirigidos dirigidas enfocado enfocada pensado pensada ' +
  'pensados pensadas sell sells selling sold vendemos vende venden vender supply supplies abastece abastecemos ' +
  'serve serves servimos atendemos used usada usado usan usa mostly mainly mayormente principalmente ' +
  'audience publico are son is es from desde between entre a to';

/** Words around a segment word that make it an actor of a feature ("patients can book", "para que los papás vean"). */
export const ACTOR_AFTER =
  'can could will would may should to puede pueden puedan podran vean reserven hagan suban paguen pidan ' +
  'book see pay order upload get receive find reciban encuentren tengan usen entren registren';
export const ACTOR_BEFORE = 'where donde que so let lets allow allows permita permitan';
